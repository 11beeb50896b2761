package meaning

import (
	"strings"
	"testing"
)

// TestOpposites: two texts alike but for an opposite (a word's opposite,
// a negation, a swap, a comparison turned around) are Opposite, in every
// language listed; rewordings and texts that differ in an unrelated word
// are not.
func TestOpposites(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want bool
		a1   string // for an opposite, a word the difference names
	}{
		// English antonyms and comparisons.
		{"Raise the connection pool size before the launch.", "Lower the connection pool size before the launch.", true, "Raise"},
		{"Increase the retry budget for the sync worker.", "Decrease the retry budget for the sync worker.", true, "Increase"},
		{"The new parser is better for large files.", "The new parser is worse for large files.", true, "better"},
		{"The firewall allows inbound traffic from the VPN.", "The firewall denies inbound traffic from the VPN.", true, "allows"},
		{"Enable request logging in the gateway.", "Disable request logging in the gateway.", true, "Enable"},
		{"The reviewer accepts patches without tests.", "The reviewer rejects patches without tests.", true, "accepts"},
		{"Include the vendor folder in the archive.", "Exclude the vendor folder in the archive.", true, "Include"},
		{"Add the user to the admins group.", "Remove the user from the admins group.", true, "Add"},
		{"Open the port on the staging host.", "Close the port on the staging host.", true, "Open"},
		{"Start the queue worker after the deploy.", "Stop the queue worker after the deploy.", true, "Start"},
		{"Turn the feature flag on for beta users.", "Turn the feature flag off for beta users.", true, "on"},
		{"Run the migration before the deploy.", "Run the migration after the deploy.", true, "before"},
		{"Use more workers for the import.", "Use fewer workers for the import.", true, "more"},
		{"The Go build is faster than the Rust build.", "The Go build is slower than the Rust build.", true, "faster"},
		{"Latency is higher on the EU cluster.", "Latency is lower on the EU cluster.", true, "higher"},
		{"Keep CPU usage above 50 percent.", "Keep CPU usage below 50 percent.", true, "above"},
		{"Log in to the admin console first.", "Log out of the admin console first.", true, "in"},
		{"Keep the generated files in the repo.", "Keep the generated files out of the repo.", true, "in"},
		{"Move the secrets into the vault.", "Move the secrets out of the vault.", true, "into"},
		{"The lock file is up to date.", "The lock file is out of date.", true, "up to date"},
		{"The team voted for the rewrite.", "The team voted against the rewrite.", true, "for"},
		{"Both reviewers must approve the PR.", "Either reviewer must approve the PR.", true, "Both"},
		{"The release ships this Friday.", "The release ships next Friday.", true, "this"},
		{"You must sign the commits.", "You should sign the commits.", true, "must"},
		{"You must sign the commits.", "You must not sign the commits.", true, "not"},
		{"Run the flaky suite once before merging.", "Run the flaky suite twice before merging.", true, "once"},
		{"Keep a couple of backups of the index.", "Keep a dozen backups of the index.", true, "couple"},
		{"A single replica serves the reports.", "Two replicas serve the reports.", true, "single"},
		{"Retry when the count > 3.", "Retry when the count < 3.", true, ">"},
		{"Alert when the error rate >= 5.", "Alert when the error rate <= 5.", true, ">="},
		{"Skip the row when status == 0.", "Skip the row when status != 0.", true, "=="},
		{"Shift the clock by +2 hours.", "Shift the clock by -2 hours.", true, "+"},
		{"The flag defaults to true.", "The flag defaults to false.", true, "true"},
		// Negations.
		{"We use Jenkins for the nightly builds.", "We no longer use Jenkins for the nightly builds.", true, "no"},
		{"Always deploy on Tuesdays.", "Never deploy on Tuesdays.", true, "Never"},
		{"The payments API supports idempotency keys.", "The payments API does not support idempotency keys.", true, "not"},
		// Swaps.
		{"Always use pnpm, never npm.", "Always use npm, never pnpm.", true, "pnpm"},
		{"Migrate the sessions from MySQL to Postgres.", "Migrate the sessions from Postgres to MySQL.", true, "MySQL"},
		{"Prefer tabs over spaces in Go files.", "Prefer spaces over tabs in Go files.", true, "tabs"},
		{"Deploy the API before the worker.", "Deploy the worker before the API.", true, "worker"},
		{"用pnpm，不用npm。", "用npm，不用pnpm。", true, "pnpm"},
		// Chinese.
		{"部署前运行集成测试。", "部署后运行集成测试。", true, "前"},
		{"我们使用Jenkins做夜间构建。", "我们不再使用Jenkins做夜间构建。", true, "不"},
		{"测试环境开启请求日志。", "测试环境关闭请求日志。", true, "开启"},
		{"这个版本增加了缓存大小。", "这个版本减少了缓存大小。", true, "增加"},
		{"合并前要运行测试。", "合并前别运行测试。", true, "别"},
		{"这个任务可以安全重跑。", "这个任务不能安全重跑。", true, "可以"},
		{"用户有生产环境的权限。", "用户没有生产环境的权限。", true, "没"},
		{"接口文档有示例。", "接口文档无示例。", true, "无"},
		{"接口文档有示例。", "接口文档没有示例。", true, "没"},
		// Japanese.
		{"キャッシュは有効です。", "キャッシュは無効です。", true, "有効"},
		{"テストを使います。", "テストを使いません。", true, "せ"},
		{"デプロイ前にテストを実行する。", "デプロイ後にテストを実行する。", true, "前"},
		{"メモリ使用量が増加した。", "メモリ使用量が減少した。", true, "増加"},
		{"本番ではログを使う。", "本番ではログを使わない。", true, "な"},
		// German.
		{"Wir verwenden Docker im CI.", "Wir verwenden Docker nicht im CI.", true, "nicht"},
		{"Wir verwenden Docker im CI.", "Wir verwenden kein Docker im CI.", true, "kein"},
		{"Wir nutzen Docker im CI.", "Wir nutzen Docker im CI nicht mehr.", true, "nicht"},
		{"Wir deployen freitags.", "Wir deployen nie freitags.", true, "nie"},
		{"Der Cache braucht mehr Speicher.", "Der Cache braucht weniger Speicher.", true, "mehr"},
		// Spanish.
		{"Usamos Redis para las sesiones.", "Ya no usamos Redis para las sesiones.", true, "no"},
		{"Usamos Redis para las sesiones.", "Nunca usamos Redis para las sesiones.", true, "Nunca"},
		{"El script aumenta el tiempo de espera.", "El script reduce el tiempo de espera.", true, "aumenta"},
		{"El índice necesita más memoria.", "El índice necesita menos memoria.", true, "más"},
		{"Ejecuta las pruebas antes del despliegue.", "Ejecuta las pruebas después del despliegue.", true, "antes"},
		// French.
		{"Nous utilisons Docker pour les tests.", "Nous n'utilisons pas Docker pour les tests.", true, "ne"},
		{"Nous utilisons Docker pour les tests.", "Nous n'utilisons plus Docker pour les tests.", true, "ne"},
		{"Nous utilisons Docker pour les tests.", "Nous utilisons jamais Docker pour les tests.", true, "jamais"},
		{"Le cache utilise plus de mémoire.", "Le cache utilise moins de mémoire.", true, "plus"},
		{"Lancez les tests avant la fusion.", "Lancez les tests après la fusion.", true, "avant"},

		// Rewordings: never opposite.
		{"Run the integration tests against the staging database before merging.", "Run integration tests against the staging DB before merging.", false, ""},
		{"Before merging, run the integration tests.", "Run the integration tests before merging.", false, ""},
		{"Never commit secrets to the repo.", "Don't commit secrets to the repository.", false, ""},
		{"Deploys are allowed on Fridays.", "Deploys are not forbidden on Fridays.", false, ""},
		{"Caching is disabled for anonymous users.", "Caching is not enabled for anonymous users.", false, ""},
		{"The build is faster with the cache.", "The build is slower without the cache.", false, ""},
		{"Use pnpm and npm for the web app.", "Use npm and pnpm for the web app.", false, ""},
		{"Use tabs. Use spaces in YAML.", "Use spaces in YAML. Use tabs.", false, ""},
		{"The user prefers tabs for indentation.", "The user likes tabs for indentation.", false, ""},
		{"The docs are in the wiki.", "The docs live in the wiki.", false, ""},
		{"Keep a dozen backups.", "Keep 12 backups.", false, ""},
		{"Run the suite twice.", "Run the suite 2 times.", false, ""},
		{"A single replica serves the reports.", "One replica serves the reports.", false, ""},
		{"Keep a couple of backups.", "Keep two backups.", false, ""},
		{"The timeout is 30 s.", "The timeout is 30 seconds.", false, ""},
		{"部署前先运行集成测试。", "部署前先运行集成测试", false, ""},
		{"用户喜欢用表格测试", "用户偏好表格测试", false, ""},
		{"我们非常重视测试", "我们重视测试", false, ""},
		{"Wir verwenden Docker nicht im CI.", "Im CI verwenden wir Docker nicht.", false, ""},
		{"Ya no usamos Redis para las sesiones.", "Ya no usamos Redis para sesiones.", false, ""},
		{"Nous n'utilisons plus Docker.", "Nous n'utilisons plus Docker pour rien.", false, ""},
		{"See the notes - they are short.", "See the notes, they are short.", false, ""},
		{"Dates look like 2026-03-01 in the log.", "Dates look like 2026-03-01 in the logs.", false, ""},
		{"Use the well-known port.", "Use the well known port.", false, ""},
		{"> Quoted advice: test first.", "Quoted advice: test first.", false, ""},
		{"Close the ticket after the release is out.", "Close the ticket once the release is out.", false, ""},

		// Unrelated details: maybe another fact, never opposite.
		{"The payments team owns the billing service.", "The platform team owns the billing service.", false, ""},
		{"Use pnpm for the web app.", "Use npm for the web app.", false, ""},
		{"The page size limit is 50.", "The page size limit is 500.", false, ""},
		{"Run the tests on CI.", "Run the tests on staging.", false, ""},
		{"Test before merging.", "Clean up the old branches after merging.", false, ""},
		{"Alice reviews the database migrations.", "Bob reviews the database migrations.", false, ""},
		{"Deploy on Tuesdays.", "Deploy on Thursdays.", false, ""},
		{"CI runs the suite on Linux.", "CI runs the suite on Windows.", false, ""},
		{"The cache entry expires after 30 seconds.", "The cache entry expires after 30 minutes.", false, ""},
		{"Use two workers for the import.", "Use 3 workers for the import.", false, ""},
		{"支付团队负责账单服务", "平台团队负责账单服务", false, ""},
		{"Store the logs in S3.", "Store the logs in GCS.", false, ""},
	} {
		d, differs := Differ(tt.a, tt.a, tt.b, tt.b)
		switch {
		case tt.want && (!differs || !d.Opposite):
			t.Errorf("%q / %q: got %v (differs %v, opposite %v), want an opposite", tt.a, tt.b, d, differs, d.Opposite)
		case tt.want && !strings.Contains(d.A+" "+d.B, tt.a1):
			t.Errorf("%q / %q: got %v, want it to name %q", tt.a, tt.b, d, tt.a1)
		case !tt.want && differs && d.Opposite:
			t.Errorf("%q / %q: got %v (opposite), want none", tt.a, tt.b, d)
		}
		if back, _ := Differ(tt.b, tt.b, tt.a, tt.a); back.Opposite != d.Opposite {
			t.Errorf("%q / %q: opposite %v one way, %v the other", tt.a, tt.b, d.Opposite, back.Opposite)
		}
	}
}

func TestMarkOperators(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"x > 5", "x  vmopgt  5"},
		{"n<10", "n vmoplt 10"},
		{"a >= b", "a  vmopge  b"},
		{"x != y", "x  vmopne  y"},
		{"by +2 hours", "by  vmopplus 2 hours"},
		{"a - b", "a  vmopminus  b"},
		{"2026-03-01", "2026-03-01"},
		{"well-known", "well-known"},
		{"a -> b => c", "a -> b => c"},
		{"> quoted", "> quoted"},
		{"- a bullet", "- a bullet"},
		{"line<br> next", "line<br> next"},
	} {
		if got := markOperators(tt.in); got != tt.want {
			t.Errorf("markOperators(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
