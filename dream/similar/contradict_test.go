package similar

import (
	"strings"
	"testing"

	"github.com/vaultmem/vaultmem/markdown"
	"github.com/vaultmem/vaultmem/memory"
)

// namedMem is a memory of type typ named name, with body body, as a run
// reads it.
func namedMem(path, name, typ, body string) *Memory {
	n := markdown.Parse(path, []byte("---\nname: "+name+"\ndescription: \ntype: "+typ+"\n---\n"+body+"\n"))
	return &Memory{Path: path, Kind: memory.Type(n.Type()), Name: name, Note: n}
}

// TestContradictionKinds: memories under names of their own that say
// opposite things (an opposite word, a comparison turned around, a
// negation, two words swapped; in English, Chinese, Japanese, German,
// Spanish and French) are flagged, with a reason naming the words;
// rewordings and memories that differ in an unrelated word are not.
func TestContradictionKinds(t *testing.T) {
	for _, tt := range []struct {
		typ              string
		nameA, a         string
		nameB, b         string
		want             bool
		reason1, reason2 string // words the reason names, for a contradiction
	}{
		// Opposite words.
		{"feedback", "Pool sizing", "Raise the connection pool size before the launch.", "Launch prep", "Lower the connection pool size before the launch.", true, "Raise", "Lower"},
		{"project", "Parser choice", "The new parser is better for large files.", "Big file parsing", "The new parser is worse for large files.", true, "better", "worse"},
		{"project", "VPN firewall", "The firewall allows inbound traffic from the VPN.", "Inbound rules", "The firewall denies inbound traffic from the VPN.", true, "allows", "denies"},
		{"feedback", "Gateway logs", "Enable request logging in the payment gateway.", "Payment logging", "Disable request logging in the payment gateway.", true, "Enable", "Disable"},
		{"project", "Patch policy", "The maintainers accept patches without tests.", "Contribution rules", "The maintainers reject patches without tests.", true, "accept", "reject"},
		{"project", "Archive contents", "Include the vendor folder in the release archive.", "Vendor folder", "Exclude the vendor folder in the release archive.", true, "Include", "Exclude"},
		{"project", "Admins", "Add the deploy bot to the admins group.", "Bot permissions", "Remove the deploy bot from the admins group.", true, "Add", "Remove"},
		{"project", "Staging port", "Open port 8443 on the staging host.", "Host hardening", "Close port 8443 on the staging host.", true, "Open", "Close"},
		{"feedback", "Worker lifecycle", "Start the queue worker after each deploy.", "Deploy steps", "Stop the queue worker after each deploy.", true, "Start", "Stop"},
		{"project", "Beta flag", "Turn the search flag on for beta users.", "Search rollout", "Turn the search flag off for beta users.", true, "on", "off"},
		{"feedback", "Migration order", "Run the schema migration before the deploy.", "Schema changes", "Run the schema migration after the deploy.", true, "before", "after"},
		{"project", "Import workers", "Use more workers for the nightly import.", "Nightly import", "Use fewer workers for the nightly import.", true, "more", "fewer"},
		{"project", "Build speed", "The Go build is faster than the Rust build.", "Toolchains", "The Go build is slower than the Rust build.", true, "faster", "slower"},
		{"project", "Latency", "Latency is higher on the EU cluster.", "EU cluster", "Latency is lower on the EU cluster.", true, "higher", "lower"},
		{"project", "CPU alert", "Alert when CPU usage stays above 80 percent.", "Monitoring", "Alert when CPU usage stays below 80 percent.", true, "above", "below"},
		{"feedback", "Generated code", "Keep the generated files in the repo.", "Repo hygiene", "Keep the generated files out of the repo.", true, "in", "out"},
		{"feedback", "Secrets", "Move the API secrets into the vault.", "Vault usage", "Move the API secrets out of the vault.", true, "into", "out of"},
		{"project", "Lock file", "The lock file is up to date.", "Dependencies", "The lock file is out of date.", true, "up to date", "out of date"},
		{"project", "Rewrite vote", "The team voted for the rewrite.", "Team decisions", "The team voted against the rewrite.", true, "for", "against"},
		{"feedback", "Reviews", "Both reviewers must approve the PR.", "Approval rule", "Either reviewer must approve the PR.", true, "Both", "Either"},
		{"project", "Release date", "The release ships this Friday.", "Shipping", "The release ships next Friday.", true, "this", "next"},
		{"feedback", "Signing", "You must sign every commit.", "Commit rules", "You should sign every commit.", true, "must", "should"},
		{"feedback", "Flaky suite", "Run the flaky suite once before merging.", "Merging", "Run the flaky suite twice before merging.", true, "once", "twice"},
		{"project", "Backups", "Keep a couple of backups of the index.", "Index safety", "Keep a dozen backups of the index.", true, "couple", "dozen"},
		{"project", "Replicas", "A single replica serves the reports.", "Reporting", "Two replicas serve the reports.", true, "single", "Two"},
		{"project", "Pool", "# Pool sizing\n\nRaise the connection pool size.", "Prep", "# Launch prep\n\nLower the connection pool size.", true, "Raise", "Lower"},
		{"project", "Checklist", "- Run the linter.\n- Raise the pool size before the launch.", "Launch list", "- Run the linter.\n- Lower the pool size before the launch.", true, "Raise", "Lower"},
		// Comparisons and operators.
		{"project", "Retry rule", "Retry the job when the count > 3.", "Job retries", "Retry the job when the count < 3.", true, ">", "<"},
		{"project", "Error alert", "Page the on-call when the error rate >= 5.", "Paging", "Page the on-call when the error rate <= 5.", true, ">=", "<="},
		{"project", "Status filter", "Skip the row when status == 0.", "Row filter", "Skip the row when status != 0.", true, "==", "!="},
		{"project", "Clock shift", "Shift the report clock by +2 hours.", "Time zones", "Shift the report clock by -2 hours.", true, "+", "-"},
		// Negations.
		{"project", "CI server", "We use Jenkins for the nightly builds.", "Nightly builds", "We no longer use Jenkins for the nightly builds.", true, "no", ""},
		{"feedback", "Must sign", "You must sign every commit.", "Unsigned commits", "You must not sign every commit.", true, "not", ""},
		// Swaps.
		{"feedback", "Package manager", "Always pnpm, never npm.", "JS tooling", "Always npm, never pnpm.", true, "pnpm", "npm"},
		{"project", "Database move", "Migrate the sessions from MySQL to Postgres.", "Sessions", "Migrate the sessions from Postgres to MySQL.", true, "MySQL", "Postgres"},
		// Chinese.
		{"project", "部署流程", "部署前运行集成测试。", "测试时机", "部署后运行集成测试。", true, "前", "后"},
		{"project", "构建", "我们使用Jenkins做夜间构建。", "夜间任务", "我们不再使用Jenkins做夜间构建。", true, "不", ""},
		{"project", "日志", "测试环境开启请求日志。", "请求日志", "测试环境关闭请求日志。", true, "开启", "关闭"},
		{"project", "缓存", "这个版本增加了缓存大小。", "版本说明", "这个版本减少了缓存大小。", true, "增加", "减少"},
		// Japanese.
		{"project", "キャッシュ設定", "キャッシュは有効です。", "設定メモ", "キャッシュは無効です。", true, "有効", "無効"},
		{"project", "デプロイ手順", "デプロイ前にテストを実行する。", "テスト", "デプロイ後にテストを実行する。", true, "前", "後"},
		{"feedback", "ログ", "本番ではログを使う。", "本番環境", "本番ではログを使わない。", true, "な", ""},
		// German.
		{"project", "Docker im CI", "Wir verwenden Docker im CI.", "CI Werkzeuge", "Wir verwenden Docker nicht im CI.", true, "nicht", ""},
		{"project", "Cache Speicher", "Der Cache braucht mehr Speicher.", "Speicherbedarf", "Der Cache braucht weniger Speicher.", true, "mehr", "weniger"},
		// Spanish.
		{"project", "Sesiones", "Usamos Redis para las sesiones.", "Redis", "Ya no usamos Redis para las sesiones.", true, "no", ""},
		{"project", "Tiempo de espera", "El script aumenta el tiempo de espera.", "Script", "El script reduce el tiempo de espera.", true, "aumenta", "reduce"},
		{"project", "Memoria", "El índice necesita más memoria.", "Índice", "El índice necesita menos memoria.", true, "más", "menos"},
		// French.
		{"project", "Docker tests", "Nous utilisons Docker pour les tests.", "Outils", "Nous n'utilisons plus Docker pour les tests.", true, "ne", ""},
		{"project", "Fusion", "Lancez les tests avant la fusion.", "Tests", "Lancez les tests après la fusion.", true, "avant", "après"},

		// Rewordings under other names: never flagged.
		{"feedback", "Staging tests", "Run the integration tests against the staging database before merging.", "Pre-merge checks", "Run integration tests against the staging DB before merging.", false, "", ""},
		{"feedback", "Merge order", "Before merging, run the integration tests.", "CI Rules", "Run the integration tests before merging.", false, "", ""},
		{"feedback", "Secrets", "Never commit secrets to the repo.", "Repo Safety", "Don't commit secrets to the repository.", false, "", ""},
		{"project", "Friday deploys", "Deploys are allowed on Fridays.", "Deploy Policy", "Deploys are not forbidden on Fridays.", false, "", ""},
		{"project", "Anonymous cache", "Caching is disabled for anonymous users.", "Docs Site", "Caching is not enabled for anonymous users.", false, "", ""},
		{"project", "Build cache", "The build is faster with the cache.", "CI Speed", "The build is slower without the cache.", false, "", ""},
		{"feedback", "Package managers", "Use pnpm and npm for the web app.", "Web App", "Use npm and pnpm for the web app.", false, "", ""},
		{"user", "Indentation", "The user prefers tabs for indentation.", "Tabs", "The user likes tabs for indentation.", false, "", ""},
		{"project", "Backups", "Keep a dozen backups.", "Backup Count", "Keep 12 backups.", false, "", ""},
		{"project", "Flaky tests", "Run the suite twice.", "Suite Runs", "Run the suite 2 times.", false, "", ""},
		{"project", "集成测试", "部署前先运行集成测试。", "部署 Checklist", "部署前先运行集成测试", false, "", ""},
		{"project", "Docker CI", "Wir verwenden Docker nicht im CI.", "Docker", "Im CI verwenden wir Docker nicht.", false, "", ""},
		{"project", "Redis sesiones", "Ya no usamos Redis para las sesiones.", "Redis Notes", "Ya no usamos Redis para sesiones.", false, "", ""},
		{"project", "Ticket closing", "Close the ticket after the release is out.", "Release Tickets", "Close the ticket once the release is out.", false, "", ""},
		// Unrelated details: maybe distinct, never a contradiction.
		{"project", "Billing owner", "The payments team owns the billing service.", "Billing", "The platform team owns the billing service.", false, "", ""},
		{"feedback", "Web tooling", "Use pnpm for the web app.", "Frontend", "Use npm for the web app.", false, "", ""},
		{"project", "Page size", "The page size limit is 50.", "API limits", "The page size limit is 500.", false, "", ""},
		{"feedback", "Merging", "Test before merging.", "Branch hygiene", "Clean up the old branches after merging.", false, "", ""},
		{"project", "Reviews", "Alice reviews the database migrations.", "Migrations", "Bob reviews the database migrations.", false, "", ""},
		{"project", "Workers", "Use two workers for the import.", "Import", "Use 3 workers for the import.", false, "", ""},
		{"project", "Logs", "Store the logs in S3.", "Log Storage", "Store the logs in GCS.", false, "", ""},
		{"project", "Deploy days", "Deploy on Tuesdays.", "Schedule", "Deploy on Thursdays.", false, "", ""},
	} {
		a := namedMem("memory/a.md", tt.nameA, tt.typ, tt.a)
		b := namedMem("memory/b.md", tt.nameB, tt.typ, tt.b)
		reason, got := Contradiction(a, b)
		switch {
		case got != tt.want:
			diff, _ := differ(a, b)
			t.Errorf("%q / %q: contradiction %v (%s; differ %v opposite %v), want %v", tt.a, tt.b, got, reason, diff, diff.Opposite, tt.want)
		case got && (!strings.Contains(strings.ToLower(reason), strings.ToLower(tt.reason1)) || !strings.Contains(strings.ToLower(reason), strings.ToLower(tt.reason2))):
			t.Errorf("%q / %q: reason %q, want it to name %q and %q", tt.a, tt.b, reason, tt.reason1, tt.reason2)
		}
		if _, back := Contradiction(b, a); back != got {
			t.Errorf("%q / %q: contradiction %v one way, %v the other", tt.a, tt.b, got, back)
		}
	}
}
