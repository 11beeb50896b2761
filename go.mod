module github.com/vaultmem/vaultmem

go 1.26.8

require (
	github.com/BurntSushi/toml v1.5.0 // indirect
	github.com/gofrs/flock v0.13.1 // indirect
	github.com/google/renameio/v2 v2.0.2 // indirect
	github.com/urfave/cli/v3 v3.14.0 // indirect
	github.com/yuin/goldmark v1.8.7 // indirect
	go.abhg.dev/goldmark/frontmatter v0.3.0 // indirect
	go.abhg.dev/goldmark/wikilink v0.6.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/sys v0.47.0 // indirect
	gopkg.in/yaml.v3 v3.0.1 // indirect
)
