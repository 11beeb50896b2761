package meaning

import "testing"

func TestDiffer(t *testing.T) {
	for _, tt := range []struct {
		a, b     string
		kind     string // "" when the texts say the same
		opposite bool
	}{
		// The same memory, reworded.
		{"Run the integration tests against the staging database before merging.",
			"Run integration tests against the staging DB before merging", "", false},
		{"The user prefers tabs for indentation in Go files.", "The user likes tabs for indentation in Go files.", "", false},
		{"Before merging, run the integration tests.", "Run the integration tests before merging.", "", false},
		{"Always run the linter before you push.", "Run the linter before you push.", "", false},
		{"Never commit secrets to the repo.", "Don't commit secrets to the repository.", "", false},
		{"The timeout is 30 s.", "The timeout is 30 seconds.", "", false},
		{"The freeze starts on March 3.", "The freeze starts on 3 March.", "", false},
		{"Use five workers for the import job.", "Use 5 workers for the import job.", "", false},
		{"部署前先运行集成测试。", "部署前先运行集成测试", "", false},
		{"用户喜欢用表格测试", "用户偏好表格测试", "", false},
		{"The limit is 1,000 rows.", "The limit is 1000 rows.", "", false},

		// Near the same words, another fact.
		{"The deploy freeze for the mobile app starts on 2026-03-01 and ends after the release review.",
			"The deploy freeze for the mobile app starts on 2026-04-01 and ends after the release review.", "date", false},
		{"Run the integration tests against the staging database before merging.",
			"Never run the integration tests against the staging database before merging.", "negation", true},
		{"The page size limit is 50.", "The page size limit is 500.", "number", false},
		{"The service builds with Go 1.21.", "The service builds with Go 1.22.", "number", false},
		{"The payments team owns the billing service.", "The platform team owns the billing service.", "word", false},
		{"The migration is safe to run twice.", "The migration is not safe to run twice.", "negation", true},
		{"The migration is safe to run twice.", "The migration is unsafe to run twice.", "opposite", true},
		{"Run the tests before merging.", "Run the tests after merging.", "opposite", true},
		{"The feature flag defaults to true.", "The feature flag defaults to false.", "opposite", true},
		{"CI runs the suite on Linux.", "CI runs the suite on Windows.", "name", false},
		{"Linux runners build the release.", "Windows runners build the release.", "word", false},
		{"The app stores sessions in MySQL.", "The app stores sessions in Postgres.", "name", false},
		{"The cache entry expires after 30 s.", "The cache entry expires after 300 s.", "number", false},
		{"The cache entry expires after 30 seconds.", "The cache entry expires after 30 minutes.", "unit", false},
		{"Alice reviews the database migrations.", "Bob reviews the database migrations.", "word", false},
		{"Deploy only on Tuesdays.", "Deploy on Tuesdays.", "restriction", false},
		{"Deploy on Tuesdays.", "Deploy on Thursdays.", "date", false},
		{"Migrate the data from MySQL to Postgres.", "Migrate the data from Postgres to MySQL.", "swap", true},
		{"Use pnpm for the web app.", "Use npm for the web app.", "word", false},
		{"The API is at v2.", "The API is at v3.", "number", false},
		{"冻结期从3月1日开始", "冻结期从4月1日开始", "number", false},
		{"合并前运行集成测试", "合并前不要运行集成测试", "negation", true},
		{"支付团队负责账单服务", "平台团队负责账单服务", "word", false},
		{"在合并之前运行测试", "在合并之后运行测试", "opposite", true},
		{"缓存保留三天", "缓存保留十天", "number", false},
		{"我们非常重视测试", "我们重视测试", "", false},
		{"The user prefers pnpm over npm.\n\nWhy: faster installs on CI.", "The user prefers pnpm over npm.\n\nThey said so twice.", "", false},
		{"Deploys go out on Tuesdays at 10:00 after the standup, never on Fridays.", "Deploys go out Tuesdays after standup.", "", false},
		{"Use tabs. Never use spaces in Makefiles.", "Use tabs.", "", false},
		{"The freeze starts on 2026-03-01.", "The freeze starts on 2026-03-01 and ends on 2026-04-01.", "", false},
		{"The payments API supports idempotency keys.", "The payments API does not support idempotency keys.", "negation", true},
		{"Always deploy on Tuesdays.", "Never deploy on Tuesdays.", "negation", true},
		{"Run the tests on CI.", "Never run the tests on staging.", "word", false},
		{"Sometimes deploy on Fridays.", "Always deploy on Fridays.", "opposite", true},
		{"Tabs over spaces in Go.", "Spaces over tabs in Go.", "swap", true},
		{"The contract renewal is due on 3 March 2026.", "The contract renewal is due on 3 May 2026.", "date", false},
		{"Fall back to Plan A when the deploy fails.", "Fall back to Plan B when the deploy fails.", "name", false},
		{"Same text, and more of it, edited.", "Same text.\n\nAnother paragraph.", "", false},
	} {
		d, differs := Differ(tt.a, tt.a, tt.b, tt.b)
		switch {
		case tt.kind == "" && differs:
			t.Errorf("%q / %q: got %v, want the same meaning", tt.a, tt.b, d)
		case tt.kind != "" && !differs:
			t.Errorf("%q / %q: same meaning, want a %s difference", tt.a, tt.b, tt.kind)
		case tt.kind != "" && (d.Kind != tt.kind || d.Opposite != tt.opposite):
			t.Errorf("%q / %q: got %v (opposite %v), want %s (opposite %v)", tt.a, tt.b, d, d.Opposite, tt.kind, tt.opposite)
		}
		// Symmetric: whether they differ does not depend on the order.
		if _, back := Differ(tt.b, tt.b, tt.a, tt.a); back != differs {
			t.Errorf("%q / %q: differs %v one way, %v the other", tt.a, tt.b, differs, back)
		}
	}
}

func FuzzDiffer(f *testing.F) {
	f.Add("Run the tests before merging 2026-03-01.", "Never run the tests after merging v2 MySQL 三天")
	f.Add("", "1,000.5:3/4-")
	f.Fuzz(func(t *testing.T, a, b string) {
		if _, differs := Differ(a, a, a, a); differs {
			t.Errorf("%q differs from itself", a)
		}
		_, ab := Differ(a, a, b, b)
		_, ba := Differ(b, b, a, a)
		if ab != ba {
			t.Errorf("%q / %q: differs %v one way, %v the other", a, b, ab, ba)
		}
	})
}

// TestNumberValue holds Differ to numbers compared by value: the zeros
// after a decimal point are part of it, thousands separators are not.
func TestNumberValue(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		same bool
	}{
		{"The rate limit is 0.01 per request.", "The rate limit is 0.1 per request.", false},
		{"Set the factor to 1.05 for the import.", "Set the factor to 1.5 for the import.", false},
		{"The threshold is 0.001.", "The threshold is 0.01.", false},
		{"The fee is 2.05 percent.", "The fee is 2.5 percent.", false},
		{"The build needs Go 1.05.", "The build needs Go 1.50.", false},
		{"The ratio is 3,05 here.", "The ratio is 3,5 here.", false},
		{"The limit is 1,000 rows.", "The limit is 1000 rows.", true},
		{"The limit is 1,000,000 rows.", "The limit is 1000000 rows.", true},
		{"The limit is 1,000.5 units.", "The limit is 1000.5 units.", true},
		{"The factor is 0.01.", "The factor is 0.01.", true},
		{"The freeze starts on 2026-03-01.", "The freeze starts on 2026-3-1.", true},
	} {
		_, differs := Differ(tt.a, tt.a, tt.b, tt.b)
		if differs == tt.same {
			t.Errorf("%q / %q: differs %v, want %v", tt.a, tt.b, differs, !tt.same)
		}
	}
	for _, tt := range []struct{ raw, want string }{
		{"0.01", "0.01"}, {"0.1", "0.1"}, {"1.05", "1.05"}, {"1.50", "1.50"}, {"007", "7"},
		{"1,000", "1000"}, {"1,000.25", "1000.25"}, {"1,05", "1,05"}, {"2026-03-01", "2026-3-1"}, {"10:05", "10:5"},
	} {
		if got := numberToken(tt.raw, false).term; got != tt.want {
			t.Errorf("numberToken(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
}
