package redact

import (
	"encoding/base64"
	"math/rand/v2"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// Character sets fake secrets are drawn from.
const (
	alnum   = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	alnumUD = alnum + "_-"
	lowerHx = "0123456789abcdef"
	digits  = "0123456789"
	b64     = alnum + "+/"
	letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	awsID   = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
	bech32  = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"
)

// fake returns a random-looking secret of n bytes from charset, the same on
// every run. Secrets are built at run time so that no real-looking token is
// written in this file (GitHub push protection scans it).
func fake(seed uint64, charset string, n int) string {
	r := rand.New(rand.NewPCG(seed, 7))
	b := make([]byte, n)
	for i := range b {
		b[i] = charset[r.IntN(len(charset))]
	}
	return string(b)
}

type redactCase struct {
	name, in, want string
}

// hit is a case where secret, between before and after, is replaced by the
// marker of rule id and nothing else changes.
func hit(id, before, secret, after string) redactCase {
	return redactCase{name: id, in: before + secret + after, want: before + "[redacted: " + id + "]" + after}
}

// miss is a case where nothing is redacted.
func miss(name, in string) redactCase { return redactCase{name: "keep " + name, in: in, want: in} }

func ruleCases() []redactCase {
	uuid := fake(1, lowerHx, 8) + "-" + fake(2, lowerHx, 4) + "-" + fake(3, lowerHx, 4) + "-" + fake(4, lowerHx, 4) + "-" + fake(5, lowerHx, 12)
	pemBody := fake(6, b64, 64) + "\n" + fake(7, b64, 64) + "\n" + fake(8, b64, 20) + "=="
	rsa := "-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "\n-----END RSA PRIVATE KEY-----"
	ssh := "-----BEGIN OPENSSH PRIVATE KEY-----\\n" + strings.ReplaceAll(pemBody, "\n", `\n`) + "\\n-----END OPENSSH PRIVATE KEY-----"
	truncated := "-----BEGIN PRIVATE KEY-----\n" + fake(9, b64, 64) + "\n" + fake(10, b64, 64)
	jwt := "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ" + fake(11, alnum, 60) + "." + fake(12, alnumUD, 43)
	basic := base64.StdEncoding.EncodeToString([]byte("deploy:" + fake(13, alnum, 14)))
	return []redactCase{
		hit("private-key", "here it is:\n", rsa, "\nkeep it safe"),
		hit("private-key", `{"stdout":"`, ssh, `\n","exit":0}`),
		hit("private-key", "cat key.pem\n", truncated, "\n"),
		miss("public key block", "-----BEGIN PUBLIC KEY-----\n"+fake(14, b64, 64)+"\n-----END PUBLIC KEY-----"),
		miss("private key header named in prose", "paste the -----BEGIN PRIVATE KEY----- line too"),

		hit("aws-access-key-id", "aws_access_key_id = ", "AKIA"+fake(15, awsID, 16), "\n"),
		hit("aws-access-key-id", "Credential=", "ASIA"+fake(16, awsID, 16), "/20250101/us-east-1"),
		miss("aws documentation key", "aws_access_key_id = AKIAIOSFODNN7"+"EXAMPLE"),
		miss("AKIA inside base64", "data:"+fake(17, b64, 10)+"xAKIA"+fake(18, awsID, 16)+"xyz"),
		hit("aws-secret-access-key", "aws_secret_access_key = ", fake(19, b64, 40), "\n"),
		hit("aws-secret-access-key", `"SecretAccessKey": "`, fake(20, b64, 40), `",`),
		miss("aws documentation secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/"+"bPxRfiCYEXAMPLEKEY"),

		hit("github-pat", "export GITHUB_TOKEN=", "ghp_"+fake(21, alnum, 36), "\n"),
		hit("github-pat", "token ", "ghp_"+fake(22, alnum, 36), "."),
		miss("short ghp_", "the ghp_ prefix marks a personal token"),
		hit("github-oauth", "", "gho_"+fake(23, alnum, 36), ""),
		hit("github-app-token", "x ", "ghs_"+fake(24, alnum, 36), " y"),
		hit("github-app-token", "x ", "ghu_"+fake(25, alnum, 36), " y"),
		hit("github-refresh-token", "", "ghr_"+fake(26, alnum, 36), ""),
		hit("github-fine-grained-pat", "GH_TOKEN=", "github_pat_"+fake(27, alnum+"_", 82), ""),
		hit("gitlab-pat", "PRIVATE-TOKEN: ", "glpat-"+fake(28, alnumUD, 20), "\n"),
		hit("gitlab-token", "", "glrt-"+fake(29, alnum, 20), ""),
		miss("gitlab prefix", "glpat- tokens expire"),

		hit("slack-bot-token", "SLACK_BOT_TOKEN=", "xoxb-"+fake(30, digits, 11)+"-"+fake(31, digits, 12)+"-"+fake(32, alnum, 24), "\n"),
		hit("slack-user-token", "", "xoxp-"+fake(33, digits, 11)+"-"+fake(34, digits, 11)+"-"+fake(35, digits, 12)+"-"+fake(36, lowerHx, 32), ""),
		hit("slack-app-token", "", "xapp-1-A"+fake(37, awsID, 10)+"-"+fake(38, digits, 13)+"-"+fake(39, lowerHx, 64), ""),
		hit("slack-legacy-token", "", "xoxr-"+fake(40, alnum, 40), ""),
		hit("slack-webhook-url", "curl -X POST https://", "hooks.slack.com/services/T"+fake(41, awsID, 8)+"/B"+fake(42, awsID, 8)+"/"+fake(43, alnum, 24), " -d @msg.json"),

		hit("stripe-access-token", "Stripe.api_key = '", "sk_live_"+fake(44, alnum, 24), "'"),
		hit("stripe-access-token", "", "rk_test_"+fake(45, alnum, 24), ""),
		hit("stripe-webhook-secret", "STRIPE_WEBHOOK_SIGNING=", "whsec_"+fake(106, alnum, 32), "\n"),
		hit("stripe-webhook-secret", "stripe listen prints ", "whsec_"+fake(107, b64, 32), " then"),
		miss("whsec prefix", "the whsec_ prefix and whsec_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"),
		hit("gcp-api-key", "?key=", "AIza"+fake(46, alnumUD, 35), "&q=x"),
		hit("gcp-oauth-secret", `"client_secret":"`, "GOCSPX-"+fake(47, alnumUD, 28), `"`),
		hit("gcp-oauth-access-token", `"access_token": "`, "ya29.a0AfH6SMB"+fake(501, alnum, 60), `"`),
		hit("gcp-oauth-access-token", "Authorization: Bearer ", "ya29."+fake(502, alnumUD, 120), ""),

		hit("anthropic-api-key", "ANTHROPIC_API_KEY=", "sk-ant-api03-"+fake(48, alnumUD, 93)+"AA", "\n"),
		hit("openai-api-key", "OPENAI_API_KEY=", "sk-proj-"+fake(49, alnumUD, 120), "\n"),
		hit("openai-api-key", "key: ", "sk-"+fake(50, alnum, 48), ""),
		miss("sk- words", "use sk-learn or the task-based runner; risk-free"),
		hit("openrouter-api-key", "", "sk-or-v1-"+fake(51, lowerHx, 64), ""),
		hit("xai-api-key", "", "xai-"+fake(52, alnum, 80), ""),
		hit("groq-api-key", "", "gsk_"+fake(53, alnum, 52), ""),
		hit("replicate-api-token", "", "r8_"+fake(54, alnum, 37), ""),
		hit("perplexity-api-key", "", "pplx-"+fake(55, alnum, 48), ""),
		hit("huggingface-access-token", "HF_TOKEN=", "hf_"+fake(56, letters, 34), "\n"),
		hit("huggingface-org-token", "", "api_org_"+fake(57, letters, 34), ""),

		hit("npm-access-token", "//registry.npmjs.org/:_authToken=", "npm_"+fake(58, alnum, 36), "\n"),
		hit("pypi-upload-token", "password = ", "pypi-AgEIcHlwaS5vcmc"+fake(59, alnumUD, 70), "\n"),
		hit("rubygems-api-token", "", "rubygems_"+fake(60, lowerHx, 48), ""),
		hit("twilio-api-key", "TWILIO_API_KEY=", "SK"+fake(61, lowerHx, 32), "\n"),
		hit("sendgrid-api-token", "", "SG."+fake(62, alnumUD, 22)+"."+fake(63, alnumUD, 43), ""),
		hit("mailchimp-api-key", "", fake(64, lowerHx, 32)+"-us14", ""),
		hit("digitalocean-pat", "", "dop_v1_"+fake(65, lowerHx, 64), ""),
		hit("digitalocean-access-token", "", "doo_v1_"+fake(66, lowerHx, 64), ""),
		hit("digitalocean-refresh-token", "", "dor_v1_"+fake(67, lowerHx, 64), ""),
		hit("heroku-api-key", "HEROKU_API_KEY=", uuid, "\n"),
		miss("uuid", "conversation "+uuid+" message 3"),
		hit("heroku-api-key-v2", "", "HRKU-AA"+fake(68, alnumUD, 58), ""),
		hit("azure-connection-key", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=", fake(69, b64, 86)+"==", ";EndpointSuffix=core.windows.net"),
		hit("azure-ad-client-secret", "secret: ", "ab18Q~"+fake(70, alnumUD, 34), "\n"),
		hit("databricks-api-token", "", "dapi"+fake(71, lowerHx, 32), ""),
		hit("shopify-token", "", "shpat_"+fake(72, lowerHx, 32), ""),
		hit("linear-api-key", "", "lin_api_"+fake(73, alnum, 40), ""),
		hit("pulumi-api-token", "", "pul-"+fake(74, lowerHx, 40), ""),
		hit("grafana-token", "", "glsa_"+fake(75, alnum, 32)+"_"+fake(76, lowerHx, 8), ""),
		hit("vault-token", "VAULT_TOKEN=", "hvs."+fake(77, alnumUD, 100), "\n"),
		hit("sentry-token", "", "sntryu_"+fake(78, lowerHx, 64), ""),
		hit("doppler-api-token", "", "dp.pt."+fake(79, alnum, 43), ""),
		hit("planetscale-token", "", "pscale_tkn_"+fake(80, alnumUD, 40), ""),
		hit("postman-api-token", "", "PMAK-"+fake(81, lowerHx, 24)+"-"+fake(82, lowerHx, 34), ""),
		hit("age-secret-key", "# ", "AGE-SECRET-KEY-1"+fake(83, bech32, 58), "\n"),
		hit("notion-api-token", "", "ntn_"+fake(84, digits, 11)+fake(85, alnum, 35), ""),
		hit("new-relic-user-api-key", "", "NRAK-"+fake(86, awsID, 27), ""),
		hit("atlassian-api-token", "", "ATATT3"+fake(87, alnumUD, 186), ""),
		hit("flyio-access-token", "", "fo1_"+fake(88, alnumUD, 43), ""),
		hit("1password-service-account-token", "", "ops_eyJ"+fake(89, b64, 260), ""),
		hit("square-access-token", "", "sq0atp-"+fake(90, alnumUD, 22), ""),
		hit("telegram-bot-api-token", "bot", fake(91, digits, 10)+":AA"+fake(92, alnumUD, 33), "/getMe"),

		hit("jwt", "id_token=", jwt, "&state=1"),
		hit("jwt", `{"token":"`, jwt, `"}`),
		miss("jwt header alone", "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 is a header"),
		hit("bearer-token", "Authorization: Bearer ", fake(93, alnum, 40), "\n"),
		miss("bearer placeholder", "Authorization: Bearer YOUR_ACCESS_TOKEN_HERE"),
		miss("bearer prose", "Use Bearer authentication for the API."),
		hit("basic-auth", "Authorization: Basic ", basic, "\n"),
		hit("generic-secret", "authorization: bearer ", fake(104, alnum, 40), "\n"),
		hit("generic-secret", "-H 'authorization: token ", fake(105, alnum, 40), "'"),
		hit("curl-auth-user", "curl -u admin:", fake(94, alnum, 14), " https://api.example.org/"),
		hit("discord-webhook-url", "curl -X POST https://discord.com/api/webhooks/", fake(301, digits, 18)+"/"+fake(302, alnumUD, 68), " -d @msg.json"),
		hit("presigned-url-signature", "https://bucket.s3.amazonaws.com/f?X-Amz-Date=20240101T000000Z&X-Amz-Signature=", fake(303, lowerHx, 64), "&x=1"),
		hit("http-cookie", "Cookie: ", "_session="+fake(304, alnum, 24), ""),
		miss("curl placeholder", "curl -u user:$PASSWORD https://api.example.org/"),

		hit("url-password", "DATABASE_URL=postgres://app:", fake(95, alnum, 16), "@db.internal:5432/app"),
		hit("url-password", "git clone https://oauth2:", fake(96, alnum, 20), "@gitlab.com/g/r.git"),
		miss("url placeholder password", "postgres://user:password@localhost/db"),
		miss("url variable password", "postgres://user:${DB_PASS}@localhost/db"),
		miss("url without password", "ssh://git@github.com/org/repo and git@github.com:org/repo.git"),
		miss("url with port", "http://localhost:8080/path?x=1"),
		// a raw # ? or / in a password ends no userinfo for a client
		hit("url-password", "postgres://app:", "Xk9#mPq2vL7zR", "@db/app"),
		hit("url-password", "postgres://app:", "Xk9?mPq2", "@db/app"),
		hit("url-password", "postgres://app:", "Xk9/mPq2", "@db/app"),
		hit("url-password", "postgres://app:", "Xk9%23mPq2vL7zR", "@db/app"),
		miss("url @ in path after a port", "http://localhost:3000/@vite/client and http://0.0.0.0:5173/@fs/src/main.ts"),
		miss("url @ in path", "https://www.npmjs.com/package/@types/node and https://x.com:443/@user and http://svc:v2/users/@me"),
		miss("url @ in query", "http://api:v1/users?email=bob@example.com"),
		miss("url placeholder with raw #", "postgres://user:${PASSWORD}@db/app#x and postgres://user:<pass#word>@db"),

		// passwords given as flags
		hit("password", "pg_dump --password ", "Xk9#mPq2vL7!zR", " app"),
		hit("password", "psql --db-password '", "Xk9#mPq2vL7zR", "'"),
		hit("password", "mysql -u root -p", "Xk9mPq2vL7zR", " app"),
		hit("password", "/usr/bin/mysqldump -uroot -p'", "Xk9#mPq2vL7zR", "' app > app.sql"),
		hit("password", "sshpass -p '", "Xk9#mPq2vL7zR", "' ssh deploy@host"),
		hit("password", "sshpass -p", "Xk9mPq2vL7zR", " scp a host:"),
		hit("generic-secret", "vault login --token ", fake(108, alnum, 30), "\n"),
		miss("flag port", "ssh -p 2222 host; docker run -p 8080:80 img; mysql -h db -P 3306 -u root -p app"),
		miss("flag mkdir", "mkdir -p src/app2/v1 && cc -pipe -pthread -O2 x.c"),
		miss("flag password file", "pg_dump --password-file ~/.pgpass and --passwordfile=/run/pw2 and --password-stdin"),
		miss("flag placeholder", "mysql -u root -p${MYSQL_ROOT_PASSWORD} and --password $DB_PASS and sshpass -p \"$PW\" ssh h"),
		miss("flag prose", "pass the --password flag, or --token when the --no-password --verbose run fails"),
		miss("flag word", "sshpass -p password ssh h and --password changeme123"),
		hit("password", "DB_PASSWORD=", "Tr0ub4dor9x", "\nDB_HOST=db"),
		hit("password", "export PGPASSWORD='", "g7#Kq2!vLp", "'"),
		hit("password", `{\"password\": \"`, "g7Kq2vLp9x", `\"}`),
		hit("password", "password: ", "s3cret-Sauce7", "\n"),
		hit("generic-secret", "OPENAI_KEY=", fake(97, alnum, 32), "\n"),
		hit("generic-secret", `"client_secret": "`, fake(98, alnum, 30), `",`),
		hit("generic-secret", "api_key: ", fake(99, lowerHx, 32), "\n"),
		hit("generic-secret", "session_token := \"", fake(100, alnum, 24), "\""),
		miss("placeholder <>", "password: <your-password>"),
		miss("placeholder ${}", "PASSWORD=${PASSWORD}"),
		miss("placeholder xxx", "password=xxxxxxxx"),
		miss("placeholder changeme", "password = changeme123"),
		miss("placeholder your-key-here", "export ANTHROPIC_API_KEY=your-key-here"),
		// Placeholder words are whole words of a value, never parts of a
		// longer word: a real password may hold one.
		hit("password", "DB_PASSWORD=", "Sphere#2024", "\n"),
		hit("password", "DB_PASSWORD=", "MySecret2024!", "\n"),
		hit("password", "DB_PASSWORD=", "tokenize99X", "\n"),
		hit("password", "password: ", "Nonesuch#7", "\n"),
		hit("password", "password=", "Passwords4Me!", "\n"),
		hit("password", "PGPASSWORD=", "Samplers!42", "\n"),
		hit("password", "password=", "Reinsert#88", "\n"),
		hit("password", "password=", "Replaced_77x", "\n"),
		hit("password", "password=", "Nullify$9", "\n"),
		hit("password", "password=", "Counterexample7!", "\n"),
		hit("password", "password=", "Yourself#12", "\n"),
		hit("password", "password=", "Dummyhead9!", "\n"),
		hit("password", "password=", "Todoist#2024", "\n"),
		hit("password", "password=", "Changemen5!", "\n"),
		hit("password", "password=", "Foobarbaz#3", "\n"),
		hit("password", "password=", "Letmeinside7", "\n"),
		hit("password", "password=", "Undefinedly#4", "\n"),
		hit("password", "password=", "Placeholders9!", "\n"),
		// a weak placeholder word with a number, or with other punctuation
		hit("password", "password=", "Secret2024", "\n"),
		hit("password", "password=", "Token#2024", "\n"),
		hit("password", "password=", "Example!2024", "\n"),
		hit("password", "sshpass -p '", "Hereford#31", "' ssh h"),
		hit("generic-secret", "API_SECRET=", "Q7xAuthZ9mKeyP3vL2", "\n"),
		hit("curl-auth-user", "curl -u admin:", "Tokenize99Xq", " https://api.example.org/"),
		hit("bearer-token", "Authorization: Bearer ", "Xk9Here"+fake(109, alnum, 24), "\n"),
		hit("url-password", "postgres://app:", "Compass#42", "@db/app"),
		hit("url-password", "postgres://app:", "MySecret2024!", "@db/app"),
		hit("url-password", "postgres://app:", "pass1234", "@db/app"),
		miss("placeholder your-password-here", "password = your-password-here"),
		miss("placeholder <token>", "password: '<token>'"),
		miss("placeholder changeme", "password=changeme and PASSWORD=Changeme2"),
		miss("placeholder REPLACE_ME", "DB_PASSWORD=REPLACE_ME and DB_PASSWORD=REPLACE_ME_1"),
		miss("placeholder example", "password=example and password=example_token_2 and password=Example123"),
		miss("placeholder none", "password=none and password: null"),
		miss("placeholder with a number", "password = your-password-123 and password = change_me_123"),
		// Common passwords are real ones when a number makes them a user's
		// own; alone they read as the example of docs.
		hit("password", "password=", "qwerty123", "\n"),
		hit("password", "password=", "Qwerty2024", "\n"),
		hit("password", "password=", "letmein2024", "\n"),
		miss("placeholder qwerty alone", "password=qwerty and password=letmein"),
		miss("placeholder here", "password=PASSWORD_HERE_1 and token = insert-token-here-42"),
		miss("placeholder hunter2", "password=hunter2"),
		miss("placeholder mask", "secret: sk-xxxxxxxxxxxx and password: '********' and token=abc...xyz9"),
		miss("placeholder template", "password: {{ .DbPassword }} and password=%s and password = '%(pw)s'"),
		miss("placeholder in url", "postgres://user:your-password@db/x and mysql://root:yourpassword123@db/x and redis://u:pass@r/0"),
		miss("secret name", "api_secret = _bm25_stats_secret and secret: myApiToken2 and token = auth_token_v2"),
		miss("type annotation", "function login(user: string, password: string, token: string): Promise<Token>"),
		miss("go parameters", "func Login(ctx context.Context, password string) (token string, err error)"),
		miss("env lookup", `api_key = os.environ["OPENAI_API_KEY"]; apiKey: process.env.OPENAI_API_KEY`),
		miss("function call", "const token = await getToken(user2);\nsecret := mustSecret(cfg)"),
		miss("token counts", "max_tokens=4096, input_tokens: 1234, prompt_tokens: 99"),
		miss("token type", `{"token_type": "Bearer", "expires_in": 3600}`),
		miss("public key", "public_key = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI"+fake(101, b64, 20)+"'"),
		miss("prose", "The token expires after an hour; the password is stored hashed, and the secret key never leaves the server."),
		miss("comparison", "if token == expectedToken2 || password != confirm9"),
		miss("hex hashes", "commit "+fake(102, lowerHx, 40)+" sha256: "+fake(103, lowerHx, 64)),
		miss("key name", `const ctxKey = "_bm25_stats_key"; type ns_tsig_key = ns_tsig_key1`),
		miss("struct tag", "`protobuf:\"bytes,1,opt,name=key\" protobuf_key:\"varint,1,opt,name=key2\"`"),
		miss("string concatenation", `cmd.Env = append(cmd.Env, "PWD="+i.WorkingDir2)`),
		miss("path", "token_file=/var/run/secrets/token2 and key: ./certs/server2.key"),
		// Go source read after placeholders became whole words: names with
		// digits inside and prose are no keys.
		miss("name with digits inside", "Certificates: []Certificate{{PrivateKey: testRSA2048PrivateKey}}"),
		miss("prose with a symbol", `errInvalidTokenPanic = "invalid jsontext.Token; it has been voided by a subsequent json.Decoder call"`),
		miss("a name ending in one letter", "signingKey = rsaPrivateKeyA"),
		miss("a URN", `TokenTypeSAML2 = "urn:ietf:params:oauth:token-type:saml2"`),
	}
}

func TestString(t *testing.T) {
	runCases(t, ruleCases())
}

// TestEveryRuleHasACase keeps the table above complete.
func TestEveryRuleHasACase(t *testing.T) {
	covered := map[string]bool{}
	for _, c := range ruleCases() {
		if !strings.HasPrefix(c.name, "keep ") {
			covered[c.name] = true
		}
	}
	ids := []string{idPassword, idSecret, idURLPassword}
	for _, ru := range New().rules {
		ids = append(ids, ru.id)
	}
	kebab := regexp.MustCompile(`^[a-z0-9]+(?:-[a-z0-9]+)*$`)
	for _, id := range ids {
		if !covered[id] {
			t.Errorf("rule %s has no positive case", id)
		}
		if !kebab.MatchString(id) {
			t.Errorf("rule id %q is not kebab-case", id)
		}
	}
}

func TestEchoesReplaced(t *testing.T) {
	pw := fake(200, alnum, 12)
	in := "MYSQL_PASSWORD=" + pw + "\nthen: mysql -u root -p" + pw + " app"
	got, n := New().String(in)
	if strings.Contains(got, pw) || n != 2 {
		t.Errorf("String(%q) = %q, %d: want both occurrences replaced", in, got, n)
	}
}

func TestNothingFoundReturnsInput(t *testing.T) {
	r := New()
	// short flags that are a password's for some commands (-p, -a, -k)
	shell := "cd build && mkdir -p src/app2/v1 && ls -a out && curl -k https://example.org/x -o y && git commit -a -m fix"
	for _, s := range []string{"", "x", benchProse, benchCode, shell} {
		got, n := r.String(s)
		if n != 0 || got != s {
			t.Fatalf("String changed a text without secrets: %q → %q", s, got)
		}
	}
	allocs := testing.AllocsPerRun(100, func() {
		r.String(benchProse)
		r.String(benchCode)
		r.String(shell)
	})
	if allocs != 0 && !raceEnabled {
		t.Errorf("String allocated %v times on text without secrets, want 0", allocs)
	}
}

func TestVersion(t *testing.T) {
	a, b := New().Version(), New().Version()
	if a != b || !regexp.MustCompile(`^[0-9a-f]{12}$`).MatchString(a) {
		t.Errorf("Version() = %q then %q, want the same 12 hex digits", a, b)
	}
	r := New()
	r.rules = r.rules[1:]
	if r.hash() == a {
		t.Error("Version does not change with the rule set")
	}
	// Each word table that decides what is redacted is in the hash: a
	// change to one must rebuild the index.
	for name, m := range map[string]map[string]bool{"keyQualifiers": keyQualifiers, "tokenQualifiers": tokenQualifiers, "excludeAny": excludeAny} {
		m["zzprobe"] = true
		changed := New().hash() != a
		delete(m, "zzprobe")
		if !changed {
			t.Errorf("Version does not change with %s", name)
		}
	}
	passwordFlags["zzprobe"] = 'z'
	changed := New().hash() != a
	delete(passwordFlags, "zzprobe")
	if !changed {
		t.Error("Version does not change with passwordFlags")
	}
}

func TestEntropy(t *testing.T) {
	for _, c := range []struct {
		s    string
		want float64
	}{{"", 0}, {"aaaa", 0}, {"abab", 1}, {"abcd", 2}} {
		if got := entropy(c.s); got != c.want {
			t.Errorf("entropy(%q) = %v, want %v", c.s, got, c.want)
		}
	}
}

// TestURLPasswordEdges: an empty user still has a password; a default
// (user and password alike) is not a secret; a password of letters only,
// caught once, is replaced again only where it stands whole, never inside a
// longer word ("postgres" in "postgresql"), while a mixed one is replaced
// wherever it occurs.
func TestURLPasswordEdges(t *testing.T) {
	r := New()
	pw := "Zq8xPl0m" + "W3nB7vT"
	cases := []struct{ in, want string }{
		{"redis://:" + pw + "@redis:6379/0", "redis://:[redacted: url-password]@redis:6379/0"},
		{"postgresql://postgres:postgres@localhost/db", "postgresql://postgres:postgres@localhost/db"},
		{"amqp://guest:guest@rabbit:5672/", "amqp://guest:guest@rabbit:5672/"},
		{"mongodb://app:" + pw + "@db/x and again " + pw + " and x" + pw + "y",
			"mongodb://app:[redacted: url-password]@db/x and again [redacted: url-password] and x[redacted: url-password]y"},
		{"mongodb://app:Quokkawombatz" + "@db/ then Quokkawombatz and Quokkawombatzoo",
			"mongodb://app:[redacted: url-password]@db/ then [redacted: url-password] and Quokkawombatzoo"},
	}
	for _, c := range cases {
		if got, _ := r.String(c.in); got != c.want {
			t.Errorf("%q\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

// TestRulesCompile compiles every rule: rules compile when first used, so a
// bad expression must fail here rather than in a user's index.
func TestRulesCompile(t *testing.T) {
	for _, ru := range New().rules {
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("rule %s: %v", ru.id, r)
				}
			}()
			if c := ru.compile(); c.re == nil || c.anchored == nil {
				t.Errorf("rule %s did not compile", ru.id)
			} else if ru.back > 0 && c.window == 0 {
				// its regexp would search the rest of the text at every keyword
				t.Errorf("rule %s (%q) looks back but its match has no bound", ru.id, ru.keywords)
			}
		}()
	}
}

// TestFirstUseConcurrent redacts from several goroutines with a fresh
// Redactor, whose rules compile on that first use (run with -race).
func TestFirstUseConcurrent(t *testing.T) {
	r := New()
	secret := "token ghp_" + strings.Repeat("aB3dE5fG7h", 3) + "123456 end"
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if out, n := r.String(secret); n != 1 || strings.Contains(out, "ghp_") {
				t.Errorf("String(%q) = %q, %d", secret, out, n)
			}
		}()
	}
	wg.Wait()
}
