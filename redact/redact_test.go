package redact_test

import (
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/vaultmem/vaultmem/redact"
)

// Fake secrets of each shape, long enough to be taken for real ones.
const (
	ghp    = "ghp_abcdefghijklmnopqrstuvwxyz0123456789AB"
	jwt    = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
	awsID  = "AKIAIOSFODNN7EXAMPLE"
	awsKey = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	azKey  = "abcdefghij0123456789abcdefghij0123456789ABCDEFGHIJ+/=="
)

// secretLines are lines as they appear in a shell command or a prompt,
// each with a secret (or two): want is the line masked, secret what must
// be gone from it.
var secretLines = []struct{ in, want, secret string }{
	// Tokens of services.
	{"GITHUB_TOKEN=" + ghp + " go test ./integration", "GITHUB_TOKEN=[REDACTED:github-token] go test ./integration", ghp},
	{"my token is " + ghp + " ok", "my token is [REDACTED:github-token] ok", ghp},
	{"git clone https://x-access-token:ghs_abcdefghijklmnopqrstuvwxyz0123456789AB@github.com/o/r.git",
		"git clone https://x-access-token:[REDACTED:github-token]@github.com/o/r.git", "ghs_abcdefghij"},
	{"export GH_TOKEN=github_pat_11ABCDEFG0abcdefghijklmnopqrstuvwxyz", "export GH_TOKEN=[REDACTED:github-token]", "github_pat_11ABC"},
	{"glab auth login --token glpat-abcdefghijklmnopqrst", "glab auth login --token [REDACTED:gitlab-token]", "glpat-abcdefghij"},
	{"ANTHROPIC_API_KEY=sk-ant-api03-abcdefghijklmnopqrstuv claude", "ANTHROPIC_API_KEY=[REDACTED:anthropic-key] claude", "sk-ant-api03"},
	{"export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx", "export OPENAI_API_KEY=[REDACTED:openai-key]", "sk-proj-abcdefghij"},
	{"use sk-abcdefghijklmnopqrstuvwxyz012345 for the old client", "use [REDACTED:openai-key] for the old client", "sk-abcdefghij"},
	{"curl -X POST -d '{\"text\":\"hi\"}' https://hooks.slack.com/services/T0123ABCD/B0456EFGH/abcdefghijklmnopqrstuvwx",
		"curl -X POST -d '{\"text\":\"hi\"}' https://hooks.slack.com/services/[REDACTED:slack-webhook]", "abcdefghijklmnopqrstuvwx"},
	{"post to https://hooks.slack.com/workflows/T0123ABCD/A0456EFGH/123456789/abcdefghij when done",
		"post to https://hooks.slack.com/workflows/[REDACTED:slack-webhook] when done", "abcdefghij"},
	{"SLACK_BOT_TOKEN=xoxb-1234567890-0987654321-abcdefghijklmnop npm start", "SLACK_BOT_TOKEN=[REDACTED:slack-token] npm start", "xoxb-1234567890"},
	{"the app token is xapp-1-A0123456789-1234567890-abcdef", "the app token is [REDACTED:slack-token]", "xapp-1-A0123456789"},
	{"GOOGLE_API_KEY=AIzaSyA1234567890abcdefghijklmnopqrstuv python run.py", "GOOGLE_API_KEY=[REDACTED:google-api-key] python run.py", "AIzaSyA123"},
	{"stripe listen --api-key sk_test_abcdefghijklmnop1234", "stripe listen --api-key [REDACTED:stripe-key]", "sk_test_abcdefghij"},
	{"charge with rk_live_abcdefghijklmnop1234 today", "charge with [REDACTED:stripe-key] today", "rk_live_abcdefghij"},
	{"NPM_TOKEN=npm_abcdefghijklmnopqrstuvwxyz0123456789 npm publish", "NPM_TOKEN=[REDACTED:npm-token] npm publish", "npm_abcdefghij"},
	{"echo //registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789 > .npmrc",
		"echo //registry.npmjs.org/:_authToken=[REDACTED:npm-token] > .npmrc", "npm_abcdefghij"},
	{"huggingface-cli login --token hf_abcdefghijklmnopqrstuvwxyzABCDEFGH", "huggingface-cli login --token [REDACTED:huggingface-token]", "hf_abcdefghij"},
	{"download it with hf_abcdefghijklmnopqrstuvwxyzABCDEFGH please", "download it with [REDACTED:huggingface-token] please", "hf_abcdefghij"},
	{"twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmcabcdefghijklmnopqrstuvwxyz dist/*",
		"twine upload -u __token__ -p [REDACTED:pypi-token] dist/*", "pypi-AgEIcHlwaS5vcmcabc"},
	{"SENDGRID_API_KEY=SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG node mail.js",
		"SENDGRID_API_KEY=[REDACTED:sendgrid-key] node mail.js", "SG.abcdefghij"},
	{"echo dckr_pat_abcdefghijklmnopqrstuvwx | docker login -u me --password-stdin",
		"echo [REDACTED:docker-token] | docker login -u me --password-stdin", "dckr_pat_abcdefghij"},
	{"jwt " + jwt, "jwt [REDACTED:jwt]", jwt},
	// HTTP authorization.
	{`curl -H "Authorization: Bearer ` + jwt + `" https://api.example.com`, `curl -H "Authorization: Bearer [REDACTED:jwt]" https://api.example.com`, jwt},
	{"curl -H 'Authorization: Bearer abcdefghijklmnop1234'", "curl -H 'Authorization: Bearer [REDACTED:bearer-token]'", "abcdefghijklmnop1234"},
	{`curl -H "Authorization: Basic dXNlcjpwYXNz" https://api.example.com`, `curl -H "Authorization: Basic [REDACTED:basic-auth]" https://api.example.com`, "dXNlcjpwYXNz"},
	{`headers = {"authorization": "basic YWRtaW46aHVudGVyMg=="}`, `headers = {"authorization": "basic [REDACTED:basic-auth]"}`, "YWRtaW46aHVudGVyMg"},
	{"curl -u admin:s3cret https://api.example.com/v1", "curl -u admin:[REDACTED:password] https://api.example.com/v1", "s3cret"},
	{"open https://user:pw@host.example.com/x in the browser", "open https://user:[REDACTED:password]@host.example.com/x in the browser", ":pw@"},
	// Passwords in URLs and DSNs.
	{"psql postgres://app:hunter2@db/app -c 'select 1'", "psql postgres://app:[REDACTED:password]@db/app -c 'select 1'", "hunter2"},
	{"psql postgres://u:p@ss@host/db", "psql postgres://u:[REDACTED:password]@host/db", "p@ss"},
	{"redis-cli -u redis://:topsecret@cache:6379/0 ping", "redis-cli -u redis://:[REDACTED:password]@cache:6379/0 ping", "topsecret"},
	{`DSN="app:pw@tcp(db:3306)/app" go run .`, `DSN="app:[REDACTED:password]@tcp(db:3306)/app" go run .`, ":pw@"},
	{"sql.Open(\"mysql\", \"root:r00t!@unix(/tmp/mysql.sock)/app\")", "sql.Open(\"mysql\", \"root:[REDACTED:password]@unix(/tmp/mysql.sock)/app\")", "r00t!"},
	{"DATABASE_URL=app:pw@db:5432/app ./migrate", "DATABASE_URL=app:[REDACTED:password]@db:5432/app ./migrate", ":pw@"},
	// Passwords after a flag or a key.
	{"mysql -u root -phunter2 app < dump.sql", "mysql -u root -p[REDACTED:password] app < dump.sql", "hunter2"},
	{"mysqldump -uroot -p'x y' app > dump.sql", "mysqldump -uroot -p[REDACTED:password] app > dump.sql", "x y"},
	{"./deploy --password hunter2 --env prod", "./deploy --password [REDACTED:password] --env prod", "hunter2"},
	{"./deploy --password=hunter2 --env prod", "./deploy --password=[REDACTED:password] --env prod", "hunter2"},
	{"./deploy --db-password 'correct horse' --env prod", "./deploy --db-password '[REDACTED:password]' --env prod", "correct horse"},
	{"keytool -list -keystore ks.jks -storepass changeit", "keytool -list -keystore ks.jks -storepass [REDACTED:password]", "changeit"},
	{"pass: x", "pass: [REDACTED:password]", "x"},
	{"password=a", "password=[REDACTED:password]", "=a"},
	{"PASSWORD=hunter2 make db", "PASSWORD=[REDACTED:password] make db", "hunter2"},
	{"PGPASSWORD=s3cr3t psql -h db", "PGPASSWORD=[REDACTED:password] psql -h db", "s3cr3t"},
	{"MYSQL_PWD=abc mysql -u root app", "MYSQL_PWD=[REDACTED:password] mysql -u root app", "abc"},
	{`{"username": "bob", "password": "correct horse"}`, `{"username": "bob", "password": "[REDACTED:password]"}`, "correct horse"},
	{"log in at /login?user=bob&password=hunter2&next=/", "log in at /login?user=bob&password=[REDACTED:password]&next=/", "hunter2"},
	{"password: correcthorse", "password: [REDACTED:password]", "correcthorse"},
	{"db:\n  user: app\n  password: 'pa ss'\n", "db:\n  user: app\n  password: '[REDACTED:password]'\n", "pa ss"},
	// Other secrets after a flag or a key.
	{"gh api --token=abc123 /user", "gh api --token=[REDACTED:secret] /user", "abc123"},
	{`curl -H "X-Api-Key: abcdef123456" https://api.example.com`, `curl -H "X-Api-Key: [REDACTED:secret]" https://api.example.com`, "abcdef123456"},
	{"client_secret: abc", "client_secret: [REDACTED:secret]", "abc"},
	// AWS.
	{"aws_secret_access_key = " + awsKey, "aws_secret_access_key = [REDACTED:aws-secret-key]", awsKey},
	{"AWS_SECRET_ACCESS_KEY=" + awsKey + " aws s3 ls", "AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key] aws s3 ls", awsKey},
	{"the keys are " + awsID + " " + awsKey + ", use them", "the keys are [REDACTED:aws-key-id] [REDACTED:aws-secret-key], use them", awsKey},
	{"AWS_ACCESS_KEY_ID=" + awsID + " AWS_SECRET_ACCESS_KEY=" + awsKey,
		"AWS_ACCESS_KEY_ID=[REDACTED:aws-key-id] AWS_SECRET_ACCESS_KEY=[REDACTED:aws-secret-key]", awsKey},
	{"key " + awsID + " here", "key [REDACTED:aws-key-id] here", awsID},
	// Azure.
	{`AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=` + azKey + `;EndpointSuffix=core.windows.net"`,
		`AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=[REDACTED:azure-key];EndpointSuffix=core.windows.net"`, azKey},
	{"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=abcdefghijklmnop0123456789ABCDEFGHIJKLMN=",
		"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=Root;SharedAccessKey=[REDACTED:azure-key]", "abcdefghijklmnop0123"},
	{"BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=sv=2021-08-06&ss=b&sp=r&sig=abcdefghij0123456789%3D",
		"BlobEndpoint=https://a.blob.core.windows.net/;SharedAccessSignature=[REDACTED:azure-sas]", "abcdefghij0123456789"},
	{`curl "https://acct.blob.core.windows.net/c/f.txt?sv=2021-08-06&sig=abcdefghij0123456789%2Babc%3D"`,
		`curl "https://acct.blob.core.windows.net/c/f.txt?sv=2021-08-06&sig=[REDACTED:azure-sas]"`, "abcdefghij0123456789"},
	// A private key block.
	{"-----BEGIN RSA PRIVATE KEY-----\nMIIEowIBAAKCAQEA\n-----END RSA PRIVATE KEY-----\nafter", "[REDACTED:private-key]\nafter", "MIIEowIBAAKCAQEA"},
	{"cat <<EOF > id\n-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA", "cat <<EOF > id\n[REDACTED:private-key]", "b3BlbnNzaC1rZXktdjEAAAA"},
}

// innocentLines hold no secret: they come out as they went in.
var innocentLines = []string{
	"git checkout 3f2a9c1e0b7d4a6f8e9c0d1b2a3f4e5d6c7b8a9f",
	"the session 3f2a9c1e-1b2c-4d5e-8f90-0a1b2c3d4e5f ended",
	"go test -run TestDecode ./testdata/base64_dGhpcyBpcyBhIHRlc3QgZml4dHVyZSBmb3IgYmFzZTY0.txt",
	"fix the password reset page",
	"the user forgot their password and the reset token expired",
	"see https://example.com/docs?page=2#intro and http://localhost:3000/api",
	"mail user@example.com about it",
	"git clone git@github.com:org/repo.git && ssh://git@github.com/org/repo",
	"the sk-learn-model-training-pipeline and task-123",
	"docker pull nginx:1.25@sha256:0d17b565c37bcbd895e9d92315a05c1c3c9a29f762b011a10c54a66cd53c9b31",
	"max_tokens=4096 and token_budget: 1500",
	"vaultmem hook --client claude-code --json",
	"The bearer of the token is the user.",
	"Basic auth is enough for the admin page.",
	"mysql -u root -p app",
	"docker login --password-stdin < creds && docker run -p 8080:80 nginx",
	"password_file: /run/secrets/db",
	"read token.go and secret_test.go, then pass the tests",
	"if password == confirm { return nil }",
	"修复登录页面的密码重置",
	"the key id starts with AKIA and is 20 characters long",
	"see [REDACTED:password] and [REDACTED] in the log",
	"meet at 10:30@home, and hf_transfer is a package",
	"postgres://db/app?sslmode=disable",
	"Authorization header missing; bypass the cache",
}

func TestString(t *testing.T) {
	if len(secretLines) < 40 || len(innocentLines) < 15 {
		t.Fatalf("%d secret rows and %d innocent ones: too few", len(secretLines), len(innocentLines))
	}
	for _, tt := range secretLines {
		got := redact.String(tt.in)
		if got != tt.want {
			t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
		if strings.Contains(got, tt.secret) {
			t.Errorf("String(%q) = %q still holds %q", tt.in, got, tt.secret)
		}
	}
	for _, in := range innocentLines {
		if got := redact.String(in); got != in {
			t.Errorf("String(%q) = %q, want it unchanged", in, got)
		}
	}
}

// TestEveryShape: each shape of the table has a row above, and a name
// docs/safety.md names.
func TestEveryShape(t *testing.T) {
	doc, err := os.ReadFile("../docs/safety.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range redact.ShapeNames() {
		tested := false
		for _, tt := range secretLines {
			tested = tested || strings.Contains(tt.want, "[REDACTED:"+name+"]")
		}
		if !tested {
			t.Errorf("shape %s has no row in secretLines", name)
		}
		if !strings.Contains(string(doc), "`"+name+"`") {
			t.Errorf("docs/safety.md does not name the shape `%s`", name)
		}
		// String's bound holds when no mask is longer than the text it
		// keeps between dense secrets allows.
		if n := len("[REDACTED:" + name + "]"); n > redact.Gap+2 {
			t.Errorf("the mask of %s is %d bytes: over %d, it breaks String's bound", name, n, redact.Gap+2)
		}
	}
}

// TestDense: secrets so short and close that their masks would more than
// double the text are masked with the text between them, within the bound.
func TestDense(t *testing.T) {
	in := strings.Repeat("pw=a ", 200)
	got := redact.String(in)
	if len(got) > 2*len(in)+64 || strings.Contains(got, "=a") {
		t.Errorf("%d bytes in, %d out: %q", len(in), len(got), got)
	}
	if redact.String(got) != got {
		t.Errorf("not idempotent on %q", got)
	}
}

func FuzzString(f *testing.F) {
	for _, tt := range secretLines {
		f.Add(tt.in)
	}
	for _, in := range innocentLines {
		f.Add(in)
	}
	f.Add(strings.Repeat("pass: x ", 30))
	f.Add("password=[REDACTED:password]xyz")
	f.Add("[REDACTED:secret]=abc token: [REDACTED:password] -p")
	f.Fuzz(func(t *testing.T, in string) {
		got := redact.String(in)
		if len(got) > 2*len(in)+64 {
			t.Fatalf("String(%q) is %d bytes, over 2×%d+64", in, len(got), len(in))
		}
		if again := redact.String(got); again != got {
			t.Fatalf("not idempotent:\n in   %q\n once %q\n twice %q", in, got, again)
		}
		if utf8.ValidString(in) && !utf8.ValidString(got) {
			t.Fatalf("String(%q) = %q is not UTF-8", in, got)
		}
	})
}

// TestMixes: every two rows joined (and every row cut short) are masked
// within the bound, idempotently: the cases a fuzzer finds slowly, where
// one secret's mask meets another's text.
func TestMixes(t *testing.T) {
	var ins []string
	for _, a := range secretLines {
		for cut := 1; cut < len(a.in); cut += 7 {
			ins = append(ins, a.in[:cut], a.in[cut:])
		}
		for _, b := range secretLines {
			for _, sep := range []string{"", ":", "@", "'", "="} {
				ins = append(ins, a.in+sep+b.in)
			}
		}
	}
	for _, in := range ins {
		got := redact.String(in)
		if len(got) > 2*len(in)+64 {
			t.Errorf("String(%q) is %d bytes, over 2×%d+64", in, len(got), len(in))
		}
		if again := redact.String(got); again != got {
			t.Errorf("not idempotent:\n in    %q\n once  %q\n twice %q", in, got, again)
		}
	}
}
