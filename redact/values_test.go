package redact

import (
	"strings"
	"testing"
)

func runCases(t *testing.T, cases []redactCase) {
	t.Helper()
	r := New()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, n := r.String(c.in)
			if got != c.want {
				t.Errorf("String(%q)\n got %q\nwant %q", c.in, got, c.want)
			}
			if want := strings.Count(c.want, "[redacted: "); n != want {
				t.Errorf("String(%q) replaced %d, want %d", c.in, n, want)
			}
		})
	}
}

// TestAssignedValueSymbols: the bare value of a password or secret key
// runs to a blank, whatever symbols it holds; & and ; end it only where
// they separate parameters or commands.
func TestAssignedValueSymbols(t *testing.T) {
	runCases(t, []redactCase{
		hit("password", "ADMIN_PASSWORD=", "Kp7&Wm3Zr9Qx2", ""),
		hit("password", "REDIS_PASSWORD=", "Yt4;Hn8Lc2Vb6", ""),
		hit("password", "PASSWORD=", "Tr0ub4dor&3x", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq2zLw&77", ""),
		hit("password", "DB_PASSWORD=", "ab1;Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq,2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq|2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq(2zLw77)", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq[2]zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq2zLw{77}", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq<2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq>2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq2<zLw>77", ""),
		hit("password", "DB_PASSWORD=", `Xk9\mPq2zLw77`, ""),
		hit("generic-secret", "SECRET_KEY=", "Ab3dEf9hIj|Kl0mNoPq7", ""),
		hit("password", "Here is my .env file:\nDB_PASSWORD=", "Kp7&Wm3Zr9Qx2", "\nDB_HOST=db\n"),
		// the value ends where & ; , | separate parameters or commands
		hit("password", "https://example.com/login?user=bob&password=", "Xk9mPq2zLw77", "&next=/home"),
		hit("password", "jdbc:mysql://db:3306/app?user=app&password=", "Xk9mPq2zLw77", ""),
		hit("password", "Server=db;Uid=app;Pwd=", "Xk9mPq2zLw77", ";Database=app"),
		hit("password", "export DB_PASSWORD=", "Xk9mPq2zLw77", "; psql -h db"),
		hit("password", "export DB_PASSWORD=", "Xk9mPq2zLw77", "&& psql -h db"),
		hit("password", "export DB_PASSWORD=", "Xk9mPq2zLw77", " | tee log"),
		hit("password", "conn = connect(password=", "Xk9mPq2zLw77", `, user="x")`),
		hit("password", "password=", "Xk9mPq2zLw77", ",user=bob"),
		hit("password", "(set PASSWORD=", "Xk9mPq2zLw77", ")"),
		hit("password", "{password=", "Xk9mPq2zLw77", "}"),
		hit("password", "<code>PASSWORD=", "Xk9mPq2zLw77", "</code>"),
		hit("password", "`PASSWORD=", "Xk9mPq2zLw77", "`"),
		hit("password", `{"cmd": "export PASSWORD=`, "Xk9mPq2zLw77", `\nnext line"}`),
		hit("password", `{"cmd": "export PASSWORD=`, "Xk9mPq2zLw77", `\"}`),
		hit("password", "The password=", "Xk9mPq2zLw77", ". Rotate it."),
		// a closing bracket ends the value only when it closes one opened
		// before the key
		hit("password", "password=", "ab)cd3fgh!", ""),
		hit("password", "DB_PASSWORD=", "Xk9)mPq2zLw77", " psql"),
		hit("password", "DB_PASSWORD=", "Xk9]mPq2z}Lw77", ""),
		hit("password", "(PWD=", "Xk9mPq2zLw77", ")"),
		hit("password", "connect(user=bob, password=", "Xk9mPq2zLw77", ")"),
		hit("password", "f(a, (b), password=", "Xk9mPq2zLw77", ")"),
		hit("password", "[password=", "Xk9mPq2zLw77", "]"),
		hit("password", "(run with DB_PASSWORD=", "Xk9)mPq2zLw77", " set)"),
		miss("query string without a secret key", "https://example.com/search?a=b&c=d&page=2"),
		miss("prose with symbols", "This is ordinary prose, with commas; semicolons & ampersands | pipes (and brackets)."),
		miss("go test output", "--- PASS: TestFoo2 (0.00s) and --- PASS: TestTags/x,testtag,y (0.04s) and --- PASS: TestWithColons/[::1]"),
		miss("code", "password := args[3] and l.password = f[i+1] and var passFlagToTest = map[string]bool{ and Secret: Bug4Secret{1},"),
		miss("function call", "password=getpass.getpass() and password=os.getenv(\"DB_PASSWORD\") and password=hash(pw+salt)"),
	})
}

// TestAssignedValueLeadingSymbol: a value that starts with $ @ # * / ~ .
// + % or ( is a password unless it refers to one kept elsewhere.
func TestAssignedValueLeadingSymbol(t *testing.T) {
	runCases(t, []redactCase{
		hit("password", "SMTP_PASSWORD=", "$Gf5Rk9Pw3Mz", ""),
		hit("password", "DB_PASSWORD=", "$ecretPass99", ""),
		hit("password", "DB_PASSWORD=", "@dmin12345678", ""),
		hit("password", "DB_PASSWORD=", "#Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "*Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "/Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "~Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", ".Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "+Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "%Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "(Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "!Xk9mPq2zLw77", ""),
		hit("password", "password=", "$2y$10$abcdefghijABCDEFGHIJ0123456789abcdefghijklmn", ""),
		miss("variable", "password=${DB_PASSWORD} and password=$DB_PASSWORD and PGPASSWORD=$dbPassword"),
		miss("shell", "echo $HOME and PATH=$PATH:/usr/bin and password=$HOME/.pgpass"),
		miss("command substitution", "password=$(cat /run/secrets/db)"),
		miss("key vault reference", "WEBSITE_PASSWORD=@Microsoft.KeyVault(SecretUri=https://v.vault.azure.net/secrets/x/)"),
		miss("sql variable", "password=@db_password"),
		miss("windows variable", "password=%DB_PASSWORD%"),
		miss("template", "password=#{db.password}"),
		miss("paths", "PASSWORD=/run/secrets/db_password and password=~/.pgpass and password=.env.local"),
	})
}

// TestAssignedValueMasks: xxx and *** make a placeholder only when the
// value is made of masks, not inside a random password.
func TestAssignedValueMasks(t *testing.T) {
	runCases(t, []redactCase{
		hit("password", "DB_PASSWORD=", "Xk9xxxmPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9***mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Maxxx9Lw77Qp", ""),
		miss("masks", "password=**** and password=xxxxxxxx and password=abc*** and password=XXXXXX"),
		miss("masked keys", "api_key=sk-xxxxxxxxxxxx and api_key=sk-abcd****wxyz and OPENAI_API_KEY=sk-proj-XXXXXXXXXXXX"),
		miss("angle placeholders", "password=<your-password> and api_key=sk-<your key here> and DB_PASSWORD=pre<DB_PASS>"),
	})
}

// TestURLPasswordSymbols: a URL password runs over every byte but a blank
// to the last '@' before the host, whatever the user name.
func TestURLPasswordSymbols(t *testing.T) {
	cases := []redactCase{
		hit("url-password", "mongodb://root:", "Jx8(Ld4)Ws7", "@mongo:27017"),
		hit("url-password", "postgresql://postgres.abcdefghijklmnop:", "Fw9#Rt3Zk7Qm", "@aws-0-us-east-1.pooler.supabase.com:6543/postgres"),
		hit("url-password", "mysql://app:", "Xk2@2Tz9Pm", "@db/app"),
		hit("url-password", "postgres://app:", "Xk9&ENTLEAKmPq2zLw77;", "@db/app"),
		hit("url-password", "postgres://app.user:", "Xk9mPq#2zLw77", "@db/app"),
		hit("url-password", "postgres://app:", "x#y/Xk9mPq2zLw77", "@db/app"),
		hit("url-password", "postgresql://app:", `Xk9m"Pq2zLw`, "@db/app"),
		hit("url-password", "postgres://app:", "$Gf5Rk9Pw3Mz", "@db/app"),
		hit("url-password", "see https://user:", "Xk9mPq2zLw77", "@host.com/contact?mail=bob@example.com"),
		hit("url-password", `{"url":"postgres://app:`, "Xk9mPq2zLw77", `@db","email":"a@b.com"}`),
		miss("url port in JSON", `{"a":"http://localhost:8080","b":"x@y.com"}`),
		miss("url variable", "postgres://app:$PGPASSWORD@db/app"),
		miss("url built in code", `DATABASE_URL=postgres://app:"+s["url-password"]+"@db.internal:5432/app`),
	}
	for _, sym := range strings.Split(`; , ( ) | { } [ ] ' < \ `+"`"+` @ # ? / & = ! % ^ :`, " ") {
		cases = append(cases, hit("url-password", "postgres://app:", "Xk9mPq"+sym+"2zLw77", "@db/app"))
	}
	runCases(t, cases)
}

// TestDottedSecretValues: a dotted value with a random part is a secret,
// not a qualified name.
func TestDottedSecretValues(t *testing.T) {
	runCases(t, []redactCase{
		hit("generic-secret", "file api_key=", "Zq7LeakATTNAME9x8Y2w.txt", ""),
		hit("generic-secret", "token=", "Ab3dEf9hIj.Kl0mNoPq7", ""),
		hit("gcp-oauth-access-token", "", "ya29.a0AfH6SMBabcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUV", ""),
		miss("qualified names", "token = oauth2.AuthStyleInHeader and api_key: config.apiKey2 and secret_key = x509Certificate.Raw and token: sha256Sum.Hex"),
		miss("ya29 too short", "the prefix ya29.abc is a Google access token"),
	})
}

// TestAssignedCodeKept: code after a password-named key, cut at its first
// blank, is code still (a read-through found these on the machine).
func TestAssignedCodeKept(t *testing.T) {
	runCases(t, []redactCase{
		miss("parenthesised expression", "pwd = (self.password.encode('utf-8') + salt)"),
		miss("C cast", "password_data = (GnomeKeyringNetworkPasswordData *) data;"),
		miss("macro call", "pass_height = PNG_PASS_ROWS(height, pass);"),
		miss("minified statements", "this._password=s._password;break;case 2:"),
		miss("a separator for a value", "password=,user=x and password=;"),
		hit("password", "DB_PASSWORD=", "(Xk9mPq2zLw77", ""),
		hit("password", "DB_PASSWORD=", "Xk9mPq;2zLw77", ""),
		hit("password", `{"password": "`, `Kp7\"Wm3Zr9Qx2`, `"}`),
		hit("password", `{"password": "`, `Kp7Wm3Zr9Qx2\\`, `", "user": "bob"}`),
	})
}
