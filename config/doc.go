// Package config is a vault's settings, .vaultmem/config.yaml: the schema
// ([Config]) and its one source of defaults ([DefaultConfig], the file
// init writes being [DefaultConfigFile], which loads to exactly it), loading
// with every section validated as it loads, each error naming the file and
// the line at fault ([LoadConfig]), the named types of its enumerations
// ([PromptKeeping], [EmbedderProvider]) that fail at load, the consent a
// vault's config needs before its privileged keys apply, and the user's
// own config under it ([LoadConfigConsent], [EffectiveConfig], [Allow],
// [Revoke]), and the one rule by which every front end chooses the agent
// id ([Config.Agent], [AgentIn]).
//
// It knows nothing of app, which opens a vault with it (.ci/run keeps it
// so). It imports the kinds whose rules the config sets (memory's sharing,
// task's agent ids, lesson's strength rules), recall (the routing matrix),
// obsidiancli (vault.access's modes) and vault (where the config file is,
// its owner check, the user's own files).
package config
