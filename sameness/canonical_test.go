package sameness

import (
	"strings"
	"testing"
)

// pair is two texts and the rule that makes them the same, or the one
// token that makes them differ.
type pair struct{ a, b string }

// canonicalRules holds, for each normalisation of docs/merge-rules.md, pairs
// that must be Same and pairs, differing by one token, that must not.
var canonicalRules = []struct {
	rule      string
	same, not []pair
}{
	{"case of prose words", []pair{
		{"Run the Tests", "run the tests"},
		{"NEVER push to main.", "never push to main."},
		{"Run The Linter Before You Push", "run the linter before you push"},
		{"The API returns JSON.", "the api returns json."},
		{"Der Server startet neu.", "der Server startet neu."},
		{"Send the X-Request-ID header.", "Send the x-request-id header."},
		{"Deploy To Staging First", "deploy to staging first"},
	}, []pair{
		{"Set `requestIDKey` first.", "Set `RequestIDKey` first."},
		{"Set requestIDKey in the context.", "Set RequestIDKey in the context."},
		{"Export DB_HOST first.", "Export db_host first."},
		{"Set MAX_RETRIES to 3.", "Set Max_Retries to 3."},
		{"Use HTTP2 here.", "Use http2 here."},
		{"Read ./Config.yaml first.", "Read ./config.yaml first."},
		{"Open https://example.com/Docs now.", "Open https://example.com/docs now."},
		{"Pass --Force to it.", "Pass --force to it."},
		{"Call `getUser` here.", "Call `GetUser` here."},
		{"Use iOS builds.", "Use ios builds."},
		{"Ship it to US customers.", "Ship it to us customers."},
		{"Ask IT to reset it.", "Ask it to reset it."},
		{"Fall back to Plan B.", "Fall back to plan b."},
		{"Können Sie das prüfen?", "Können sie das prüfen?"},
		{"Tag it #Urgent.", "Tag it #urgent."},
	}},
	{"punctuation and whitespace", []pair{
		{"Before merging, run the tests.", "Before merging run the tests"},
		{"Use pnpm (not npm).", "Use pnpm not npm"},
		{`Take the "fast" path.`, "Take the fast path."},
		{"Deploy   on\nTuesdays.", "Deploy on Tuesdays"},
		{"Use tabs — not spaces.", "Use tabs, not spaces."},
		{"Stop the deploy!", "Stop the deploy."},
		{"Note: keep it short.", "Note keep it short."},
		{"Run `go test ./...`.", "Run `go test ./...`"},
		{"Attention : ne pas déployer !", "Attention: ne pas déployer."},
		{"¿Usamos pnpm?", "Usamos pnpm?"},
		{"部署前，先运行测试。", "部署前 先运行测试"},
		{"デプロイの前に テストを実行する。", "デプロイの前にテストを実行する"},
		{"배포 전에 테스트를 실행한다.", "배포 전에  테스트를 실행한다"},
	}, []pair{
		{"Build it in ./build", "Build it in ../build"},
		{"Push with --force-with-lease.", "Push with --force."},
		{"Check that a != b.", "Check that a == b."},
		{"The price is $5.", "The price is €5."},
		{"The price is $5.", "The price is £5."},
		{"Build it with C++.", "Build it with C."},
		{"Set x=1 here.", "Set x 1 here."},
		{"Mention @alice in it.", "Mention alice in it."},
		{"Tag it #urgent.", "Tag it urgent."},
		{"Cache ~/.npm on CI.", "Cache /.npm on CI."},
		{"The limit is >5.", "The limit is <5."},
		{"Run cd . first.", "Run cd .. first."},
		{"Run cd ../.. first.", "Run cd ../ first."},
		{"Is it safe?", "Is it safe."},
		{"Set it to 5.", "Set it to -5."},
		{"Pin it to ^1.2.", "Pin it to ~1.2."},
		{"Use 2 * 3 here.", "Use 2 3 here."},
		{"Set f(x) here.", "Set f(x here."},
		{"아버지가 방에 들어가신다", "아버지 가방에 들어가신다"},
	}},
	{"markdown emphasis, list markers, list order", []pair{
		{"**Never** push to main.", "Never push to main."},
		{"Use *pnpm* for _all_ installs.", "Use pnpm for all installs."},
		{"__Important__: run it.", "Important: run it."},
		{"- Use pnpm\n- Run lint", "* Use pnpm\n* Run lint"},
		{"- Use pnpm\n- Run lint", "+ Run lint\n+ Use pnpm"},
		{"We use Go, Rust and Python.", "We use:\n- Python\n- Go\n- Rust"},
		{"We use Go, Rust, and Python.", "We use Python, Go and Rust."},
		{"We use Go, Rust and Python for tools.", "We use Python, Go and Rust for tools."},
		{"Supported: Postgres 16, MySQL 8 and SQLite.", "Supported:\n\n- SQLite\n- MySQL 8\n- Postgres 16"},
		{"Never:\n- push to main\n- skip CI", "Never:\n* skip CI\n* push to main"},
		{"Use one of pnpm, yarn or npm.", "Use one of npm, pnpm or yarn."},
		{"1. Build\n2. Test", "1) Build\n2) Test"},
		{"- [ ] Ship it\n- [x] Tag it", "- [x] Tag it\n- [ ] Ship it"},
	}, []pair{
		{"~~Use npm~~ Use pnpm.", "Use npm Use pnpm."},
		{"Migrate from MySQL to Postgres.", "Migrate from Postgres to MySQL."},
		{"1. Build\n2. Test", "1. Test\n2. Build"},
		{"- Build\n- Test", "1. Build\n2. Test"},
		{"Use pnpm, yarn or npm.", "Use pnpm, yarn and npm."},
		{"Run lint and test.", "Run test and lint."},
		{"- [ ] Ship it", "- [x] Ship it"},
		{"- [ ] Ship it", "- Ship it"},
		{"Prefer tabs over spaces.", "Prefer spaces over tabs."},
		{"If so, tests and lint run.", "If tests, so and lint run."},
		{"Set snake_case_name here.", "Set snakecasename here."},
		{"Never:\n- push to main", "- push to main"},
		{"We use Go, Rust and Python 3.", "We use Python, Rust and Go 3."},
		{"Keep 3 apples, pears and plums.", "Keep 3 pears, apples and plums."},
		{"We use Go, Rust and Python scripts.", "We use Python, Rust and Go scripts."},
	}},
	{"sentence split and join", []pair{
		{"Use tabs. Never use spaces.", "Use tabs; never use spaces."},
		{"Use tabs. Never use spaces.", "Use tabs.\nNever use spaces."},
		{"Use tabs. Never use spaces.", "Use tabs.\n\nNever use spaces."},
		{"Use tabs! Never use spaces.", "Use tabs. Never use spaces"},
		{"部署前运行测试。不要跳过。", "部署前运行测试；不要跳过"},
		{"Run it, e.g. on CI. Then stop.", "Run it, e.g. on CI; then stop."},
		{"The timeout is 30 s. Retry once.", "The timeout is 30 s; retry once."},
	}, []pair{
		{"Use tabs. Never use spaces.", "Never use spaces. Use tabs."},
		{"Use tabs. Never use spaces.", "Use tabs. Always use spaces."},
		{"Run the tests\nbefore merging.", "Run the tests. Before merging."},
		{"Use tabs. Never use spaces.", "Use tabs. Never use tabs."},
		{"Use tabs. Never use spaces.", "Use tabs.\n\n# Never use spaces."},
		{"Use tabs. Never use spaces.", "Use tabs.\n\n> Never use spaces."},
	}},
	{"numbers", []pair{
		{"Use three workers.", "Use 3 workers."},
		{"Keep twenty-five replicas.", "Keep 25 replicas."},
		{"Keep twenty five replicas.", "Keep 25 replicas."},
		{"The limit is 1,000 rows.", "The limit is 1000 rows."},
		{"The limit is 1 000 rows.", "The limit is 1000 rows."},
		{"The limit is one thousand rows.", "The limit is 1,000 rows."},
		{"Keep two hundred and five users.", "Keep 205 users."},
		{"Load 2.5 million rows.", "Load 2,500,000 rows."},
		{"Keep the error rate under 5%.", "Keep the error rate under five percent."},
		{"Keep the error rate under 5 per cent.", "Keep the error rate under 5 %."},
		{"缓存保留三天", "缓存保留3天"},
		{"重试两次", "重试2次"},
	}, []pair{
		{"Set the rate to 0.01.", "Set the rate to 0.1."},
		{"Set the ratio to 1.05.", "Set the ratio to 1.5."},
		{"Pin version 1.5.", "Pin version 1.50."},
		{"Pin v1.5.", "Pin v1.50."},
		{"Pin 1.2.3.", "Pin 1.2.30."},
		{"Use three workers.", "Use four workers."},
		{"Keep 25 replicas.", "Keep 250 replicas."},
		{"Keep it under 5%.", "Keep it under 50%."},
		{"Pin version three.", "Pin version 3."},
		{"Keep it under 5%.", "Keep it under 5."},
		{"Use one worker.", "Use a worker."},
		{"Set it to 1.0 now.", "Set it to 1 now."},
		{"Open ports 1,000 now.", "Open ports 1,0000 now."},
		{"取一部", "取1部"},
		{"The budget is $40k.", "The budget is $40m."},
	}},
	{"dates", []pair{
		{"The freeze starts on 2026-03-01.", "The freeze starts on 1 March 2026."},
		{"The freeze starts on 2026-03-01.", "The freeze starts on March 1, 2026."},
		{"The freeze starts on 2026-03-01.", "The freeze starts on Mar 1 2026."},
		{"The freeze starts on 2026-03-01.", "The freeze starts on Mar. 1, 2026."},
		{"The freeze starts on 2026-03-01.", "The freeze starts on March 1st, 2026."},
		{"The freeze starts on 2026-03-01.", "The freeze starts on 2026/3/1."},
		{"Review on March 3.", "Review on 3 March."},
		{"It is due May 5.", "It is due 5 May."},
		{"冻结期从2026年3月1日开始", "冻结期从2026-03-01开始"},
		{"Ship it in March 2026.", "Ship it in Mar 2026."},
	}, []pair{
		{"Freeze on 2026-03-01.", "Freeze on 2026-03-02."},
		{"Freeze on 2026-03-01.", "Freeze on 2026-01-03."},
		{"Freeze on 1 March 2026.", "Freeze on 1 March 2027."},
		{"Freeze on March 1.", "Freeze on March 1, 2026."},
		{"Deploy tomorrow.", "Deploy 2026-03-02."},
		{"Deploy this Friday.", "Deploy next Friday."},
		{"Freeze on 03/01/2026.", "Freeze on 2026-03-01."},
		{"Ship it in March 2026.", "Ship it on 1 March 2026."},
		{"Ship it in May 2026.", "Ship it in may 2026."},
		{"冻结期从3月1日开始", "冻结期从4月1日开始"},
		{"Sprint 12, March 3.", "Sprint March 12, 3."},
	}},
	{"durations and sizes", []pair{
		{"The timeout is 30 seconds.", "The timeout is 30s."},
		{"The timeout is 30 seconds.", "The timeout is 30 sec."},
		{"The timeout is 30 seconds.", "The timeout is thirty seconds."},
		{"Wait 2 minutes.", "Wait 2 min."},
		{"Wait 2 minutes.", "Wait 120 seconds."},
		{"Wait 1 hour.", "Wait 60 minutes."},
		{"Wait 1.5 hours.", "Wait 90 minutes."},
		{"Wait 500ms.", "Wait 0.5 seconds."},
		{"Wait 1 day.", "Wait 24 hours."},
		{"Wait 2 weeks.", "Wait 14 days."},
		{"Cap it at 1 KB.", "Cap it at 1 kB."},
		{"Cap it at 2 GB.", "Cap it at 2 gigabytes."},
		{"Cap it at 1 KiB.", "Cap it at 1024 bytes."},
		{"Keep it 2 years.", "Keep it 2 yrs."},
	}, []pair{
		{"The timeout is 30s.", "The timeout is 30m."},
		{"The timeout is 5m.", "The timeout is 5h."},
		{"Walk 800 m.", "Walk 800 km."},
		{"Meet at 2am.", "Meet at 2pm."},
		{"The timeout is 5m.", "The timeout is 5 minutes."},
		{"The timeout is 5m.", "The timeout is 5 min."},
		{"Cap it at 1 GB.", "Cap it at 1000 MB."},
		{"Cap it at 1 GB.", "Cap it at 1024 MB."},
		{"Cap it at 1 KB.", "Cap it at 1 KiB."},
		{"Keep it 12 months.", "Keep it 1 year."},
		{"Keep it 30 days.", "Keep it 1 month."},
		{"Cap it at 2 Gb.", "Cap it at 2 GB."},
		{"The timeout is 30 seconds.", "The timeout is 30 minutes."},
		{"Build it in 3D.", "Build it in 3 days."},
	}},
	{"equivalent terms", []pair{
		{"Don't push to the repo.", "Do not push to the repository."},
		{"Open a PR for it.", "Open a pull request for it."},
		{"PRs need a review.", "Pull requests need a review."},
		{"It's on k8s.", "It is on Kubernetes."},
		{"Set the colour in the config.", "Set the color in the configuration."},
		{"Organise the env.", "Organize the environment."},
		{"Use the Postgres DB.", "Use the PostgreSQL database."},
		{"You can't skip it.", "You cannot skip it."},
		{"You can not skip it.", "You can't skip it."},
		{"It won't build; it isn't safe.", "It will not build; it is not safe."},
		{"It doesn't build in JS or TS.", "It does not build in JavaScript or TypeScript."},
	}, []pair{
		{"Start the dev server.", "Start the develop server."},
		{"Read the doc.", "Read the docs."},
		{"It is internal.", "It is international."},
		{"Call getUsers.", "Call getUser."},
		{"Run the test.", "Run the tests."},
		{"Deploy to prod.", "Deploy to production."},
		{"Back up the database.", "Back up the databases."},
		{"Don't push.", "Dont push."},
		{"Set DB_HOST.", "Set DATABASE_HOST."},
		{"Use `db` here.", "Use `database` here."},
		{"Check it in.", "Check it out."},
		{"Use a single worker.", "Use two workers."},
		{"We use Redis.", "We no longer use Redis."},
		{"Use the cache.", "Use a cache."},
		{"Use the cache.", "Use cache."},
		{"Sort by ts.", "Sort by TypeScript."},
	}},
}

func TestCanonicalRules(t *testing.T) {
	for _, r := range canonicalRules {
		if len(r.same) < 5 || len(r.not) < 5 {
			t.Errorf("%s: %d pairs Same and %d not, want 5 of each at least", r.rule, len(r.same), len(r.not))
		}
		for _, p := range r.same {
			if !Same(p.a, p.b) || !Same(p.b, p.a) {
				t.Errorf("%s: %q / %q not Same:\n%s\n%s", r.rule, p.a, p.b, Canonical(p.a), Canonical(p.b))
			}
			if !Contains(p.a, p.b) || !Contains(p.b, p.a) {
				t.Errorf("%s: %q / %q Same but not contained in each other", r.rule, p.a, p.b)
			}
		}
		for _, p := range r.not {
			if Same(p.a, p.b) || Same(p.b, p.a) {
				t.Errorf("%s: %q / %q Same, want different: %s", r.rule, p.a, p.b, Canonical(p.a))
			}
			if !Same(p.a, p.a) || !Same(p.b, p.b) {
				t.Errorf("%s: %q or %q not Same as itself", r.rule, p.a, p.b)
			}
		}
	}
}

// TestEquivalentTerms holds every spelling of the table to its normal
// form, and a word beside it to itself.
func TestEquivalentTerms(t *testing.T) {
	for key, norm := range termTable() {
		spelling := strings.TrimPrefix(key, "=")
		a, b := "Check the "+spelling+" here.", "Check the "+strings.Join(norm, " ")+" here."
		if !Same(a, b) {
			t.Errorf("%q / %q not Same:\n%s\n%s", a, b, Canonical(a), Canonical(b))
		}
		if c := "Check the " + spelling + "x here."; Same(c, b) {
			t.Errorf("%q Same as %q", c, b)
		}
		if code := "Check the `" + spelling + "` here."; Same(code, b) {
			t.Errorf("%q Same as %q: a code span is compared as written", code, b)
		}
	}
	// The table is one place, each line once, no spelling the normal form of another line.
	norms := map[string]bool{}
	for _, line := range equivalentTerms {
		n, _, ok := strings.Cut(line, "|")
		if !ok || norms[strings.TrimSpace(n)] {
			t.Errorf("line %q: no | or a normal form twice", line)
		}
		norms[strings.TrimSpace(n)] = true
	}
	for spelling, norm := range termTable() {
		if norms[spelling] && (len(norm) != 1 || norm[0] != spelling) {
			t.Errorf("%q is both a spelling and a normal form", spelling)
		}
	}
	for _, w := range []string{"organise", "organisation", "initialiser", "normalised", "serialising", "prioritises"} {
		if _, ok := termTable()[w]; !ok {
			t.Errorf("%q not in the table", w)
		}
	}
}

// TestBriefExamples are the false merges the rule replaces: none of them
// is Same.
func TestBriefExamples(t *testing.T) {
	for _, p := range []pair{
		{"Move the files in.", "Move the files out."},
		{"The fee is $40.", "The fee is €40."},
		{"The timeout is 30s.", "The timeout is 30m."},
		{"Set DB_HOST.", "Set DATABASE_HOST."},
		{"Call getUsers.", "Call getUser."},
		{"We deploy on Fridays.", "We no longer deploy on Fridays."},
		{"The rate is 0.01.", "The rate is 0.1."},
		{"Pin version 1.5.", "Pin version 1.50."},
		{"The timeout is 5m.", "The timeout is 5h."},
		{"Walk 800 m.", "Walk 800 km."},
		{"The budget is $40k.", "The budget is $40m."},
		{"Meet at 2am.", "Meet at 2pm."},
		{"Use a single worker.", "Use two workers."},
		{"Deploy this Friday.", "Deploy next Friday."},
		{"Deploy tomorrow.", "Deploy on 2026-03-02."},
	} {
		if Same(p.a, p.b) {
			t.Errorf("%q / %q Same", p.a, p.b)
		}
	}
}

func TestContains(t *testing.T) {
	for _, tt := range []struct {
		whole, part string
		want        bool
	}{
		{"Use pnpm. It is faster.", "Use pnpm.", true},
		{"Use pnpm. It is faster.", "It's faster!", true},
		{"Use pnpm. It is faster.", "It is faster. Use pnpm.", true},
		{"Use pnpm; it is faster.", "use pnpm", true},
		{"We use Go, Rust and Python.", "We use Rust.", true},
		{"We use:\n- Go\n- Rust\n- Python", "We use:\n- Python\n- Go", true},
		{"Never:\n- push to main\n- skip CI", "Never push to main.", true},
		{"Use tabs.\n\nNever use spaces.", "Never use spaces.", true},
		{"The timeout is 30 seconds. Retry twice.", "The timeout is 30s.", true},
		{"部署前运行测试。不要跳过。", "不要跳过", true},

		{"Use pnpm only for the web app.", "Use pnpm.", false},
		{"Use pnpm.", "", false},
		{"Use pnpm.", " \n\t ", false},
		{"", "Use pnpm.", false},
		{"Never:\n- push to main", "Push to main.", false},
		{"Use pnpm, yarn or npm.", "Use pnpm.", false},
		{"1. Build\n2. Test", "1. Test", false},
		{"1. Build\n2. Test", "1. Test\n2. Build", false},
		{"Use pnpm. It is faster.", "Use pnpm. It is slower.", false},
		{"We use Redis.", "We no longer use Redis.", false},
		{"Run the tests\nbefore merging.", "Run the tests.", false},
		{"If so, tests and lint run.", "If tests run.", false},
		{"Use pnpm.", "Use pnpm. It is faster.", false},
		{"Use `pnpm`.", "Use pnpm.", false},
		{"## Deprecated\n\n- Use npm\n- Use yarn", "Use npm.", false},
		{"## Deprecated\n\nUse npm.", "Use npm.", false},
		{"## Deprecated\n\nUse npm.", "## Deprecated\n\nUse npm.", true},
		{"# Tools\n\n## Deprecated\n\nUse npm.\n\n## Current\n\nUse pnpm.", "# Tools\n## Current\nUse pnpm.", true},
		{"# Tools\n\n## Deprecated\n\nUse npm.\n\n## Current\n\nUse pnpm.", "# Tools\n## Current\nUse npm.", false},
		{"Avoid these.\n\n- Use npm\n- Use yarn", "Use npm.", false},
		{"Avoid these.\n\n- Use npm\n- Use yarn", "Avoid these.\n- Use yarn", true},
		{"- Use pnpm\n- Run lint", "Run lint.", true},
		{"> Never use npm.", "Never use npm.", false},
		{"Rule: if the build fails, retry and alert.", "Rule: retry.", false},
	} {
		if got := Contains(tt.whole, tt.part); got != tt.want {
			t.Errorf("Contains(%q, %q) = %v, want %v", tt.whole, tt.part, got, tt.want)
		}
	}
}

// TestCanonicalForm pins the normal form of a few texts, so that a
// change to it is seen.
func TestCanonicalForm(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"Run the Tests.", "run the tests"},
		{"**Never** push to `main`; use --force-with-lease.", "never push to `main`\nuse --force-with-lease"},
		{"The timeout is 30s, or two minutes.", `the timeout is \sec:30 or \sec:120`},
		{"Deploy on March 1, 2026.", `deploy on \date:2026-03-01`},
		{"We use Go, Rust and Python.", `we use \{ go \| python \| rust \}`},
		{"Steps:\n1. Build\n2. Test", `steps \[ build \| test \]`},
		{"# Title\n\n> a *quote*", "\\h1 title\n\\q a quote"},
		{"```sh\nmake test\n```", `\code sh\x0amake\x20test`},
		{"See [[Note|alias]].", `see \x5b\x5bNote\x7calias\x5d\x5d`},
		{"", ""},
	} {
		if got := Canonical(tt.in); got != tt.want {
			t.Errorf("Canonical(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestCanonicalMarkdown holds the blocks read as markdown: code is
// compared as written, quotes and headings are kept apart from prose.
func TestCanonicalMarkdown(t *testing.T) {
	for _, p := range []pair{
		{"```\nRun The Tests\n```", "```\nrun the tests\n```"},
		{"    Run The Tests", "    run the tests"},
		{"```sh\nmake\n```", "```bash\nmake\n```"},
		{"Use `a  b`.", "Use `a b`."},
		{"See [docs](https://example.com/a).", "See [docs](https://example.com/b)."},
		{"See [[Note]].", "See [[note]]."},
		{"## Setup", "# Setup"},
		{"- a\n  - b\n- c", "- a\n- b\n- c"},
		{"Setup:\n- a\n- b", "Setup.\n- a\n- b"},
	} {
		if Same(p.a, p.b) {
			t.Errorf("%q / %q Same", p.a, p.b)
		}
	}
	for _, p := range []pair{
		{"Use `a` and `b`.", "Use `a` and `b`"},
		{"- a\n  - b\n- c", "- c\n- a\n   - b"},
		{"Intro.\n\n- a\n- b\n\nOutro.", "Intro.\n- b\n- a\n\nOutro."},
		{"Text\r\nmore text", "Text\nmore text"},
		{"café", "cafe\u0301"},
		{"See https://example.com/a_b_c.", "See https://example.com/a_b_c"},
		{"\\*not emphasis\\*", "\\*not emphasis\\*."},
	} {
		if !Same(p.a, p.b) {
			t.Errorf("%q / %q not Same:\n%s\n%s", p.a, p.b, Canonical(p.a), Canonical(p.b))
		}
	}
	// The normal form's structure cannot be written in a text's tokens.
	for _, p := range []pair{
		{"Use `a b`.", "Use a b."},
		{"Use a\\x20b here.", "Use a b here."},
		{"Use a|b here.", "Use a b here."},
		{"Use {a} here.", "Use a here."},
		{"We use \\{ go \\| rust \\} here.", "We use go, rust and python here."},
		{"Keep \\date:2026-03-01 here.", "Keep 2026-03-01 here."},
		{"Keep 007 here.", "Keep 7 here."},
		{"Keep 1,5 here.", "Keep 1.5 here."},
	} {
		if Same(p.a, p.b) {
			t.Errorf("%q / %q Same", p.a, p.b)
		}
	}
	if Same("Use \xff here.", "Use \xfe here.") || Contains("Use \xff here.", "Use \xfe here.") {
		t.Errorf("two texts with other bytes that are not UTF-8 taken for the same")
	}
	if Same("\\*x\\*", "*x*") {
		t.Errorf("escaped asterisks read as emphasis")
	}
}
