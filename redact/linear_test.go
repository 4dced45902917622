package redact

import (
	"strings"
	"sync/atomic"
	"testing"
)

// pathological are units that, repeated with no blank, once made a
// detector rescan the rest of the text at every key (or run a regexp over
// a wide window at every keyword).
var pathological = []struct{ name, unit string }{
	{"lone bracket", "password=a)"},
	{"password colon", "password:"},
	{"password equals", "password=ab"},
	{"spanish key", "contraseña:"},
	{"russian key", "пароль:"},
	{"token", "token=x"},
	{"quoted", `password="`},
	{"escaped quote", `password=\"a`},
	{"encoded", "password%3Da"},
	{"flag", "--password "},
	{"KEY", "KEY "},
	{"url", "https://u:p"},
	{"url at", "://u:p@"},
	{"PASSWORD", "PASSWORD "},
	{"setx", "setx PASSWORD "},
	{"setx quoted", `setx PASSWORD "a`},
	{"sql schema", "  id INT, PRIMARY KEY (id), FOREIGN KEY (user_id) REFERENCES users(id),\n"},
	{"value pair", `{"name":"DB_PASSWORD","value":"`},
	{"pin", "PIN 1"},
	{"xml", "<password>"},
	{"cookie", "Cookie: a="},
	{"netrc", "machine password "},
	// The private key rule has no window, so TestLinearWork does not count
	// it (its body's bound is held by TestPrivateKeyBody): for the benchmark.
	{"private key", "-----BEGIN PRIVATE KEY-----a"},
	{"markers", "[redacted: a] PIN: 4821\n"},
	{"cookie rejected", "Cookie: a=AAAAAAAAAAAAAAAAAAAA; "},
	{"openai", "sk-proj-"},
	{"anthropic", "sk-ant-ab12-"},
	{"gitlab", "glrt-"},
	{"sentry", "sntrys_="},
	{"keys as values", "contraseña= "},
	{"values on one line", `"value": "a", `},
	{"values as lines", "Value: a\n"},
	{"value flag", "--value "},
}

// workOf returns the bytes the detectors examine to redact s.
func workOf(r *Redactor, s string) int64 {
	var c atomic.Int64
	work.Store(&c)
	defer work.Store(nil)
	r.String(s)
	return c.Load()
}

// TestLinearWork: redacting a text costs work linear in its length, for
// texts that once cost quadratic work. It counts the bytes the detectors
// examine rather than time, which is flaky on a busy machine: a text 4
// times longer must not cost more than about 4 times the work. A regexp
// tried at one place counts its whole window, an upper bound, and so does
// a rule's gate: a rule that runs at every keyword over a wide window
// shows as many bytes per byte.
func TestLinearWork(t *testing.T) {
	small, large := 256<<10, 1<<20
	if testing.Short() {
		small, large = 16<<10, 64<<10
	}
	r := New()
	for _, c := range pathological {
		t.Run(c.name, func(t *testing.T) {
			w1 := workOf(r, strings.Repeat(c.unit, small/len(c.unit)))
			w4 := workOf(r, strings.Repeat(c.unit, large/len(c.unit)))
			if w4 > 5*max(w1, int64(small)) {
				t.Errorf("%q: %d bytes examined for %d KB, %d for %d KB: not linear", c.unit, w1, small>>10, w4, large>>10)
			}
			if per := w4 / int64(large); per > 300 {
				t.Errorf("%q: %d bytes examined per byte of text", c.unit, per)
			}
		})
	}
}

func BenchmarkPathological(b *testing.B) {
	r := New()
	for _, c := range pathological {
		text := strings.Repeat(c.unit, (256<<10)/len(c.unit))
		b.Run(strings.ReplaceAll(c.name, " ", "-"), func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				r.String(text)
			}
		})
	}
}

// TestLongBareValue: a bare value longer than findAssignments reads to
// judge it is judged by its start and replaced whole.
func TestLongBareValue(t *testing.T) {
	long := fake(400, b64, 1600)
	runCases(t, []redactCase{
		hit("generic-secret", "PRIVATE_KEY=", long, "\nnext"),
		hit("password", "password=", strings.Repeat("Xk9)", 200), " ok"),
		hit("password", "password=", strings.Repeat("a)password=", 300)+"a)", ""),
		miss("long words", "password="+strings.Repeat("changeme", 100)),
		miss("long path", "token=/usr/local/share/"+strings.Repeat("some_dir/", 60)),
	})
}

// TestPrivateKeyBody: a key's body has no five dashes in a row, so the
// block is read to its END line but never past the next armour line. A
// BEGIN with no END used to be read to the text's end at every BEGIN after
// it (75 s for 256 KB of "-----BEGIN PRIVATE KEY-----a"), and took in a
// later block whole.
func TestPrivateKeyBody(t *testing.T) {
	body := "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\nVJTUt9Us8cKjMzEfYyjiWA4R4/M2bS1GB4t7NXp98C3SC6dV\n"
	encrypted := "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n" + body + "-----END RSA PRIVATE KEY-----"
	block := "-----BEGIN PRIVATE KEY-----\n" + body + "-----END PRIVATE KEY-----"
	runCases(t, []redactCase{
		hit("private-key", "key:\n", encrypted, "\nok"),
		hit("private-key", "a stray armour line -----BEGIN PRIVATE KEY----- (no key)\nthen\n", block, "\n"),
		hit("private-key", "cut off:\n", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\nDEK-Info: AES-128-CBC,3F17F5316E2BAC89\n\n"+strings.TrimSuffix(body, "\n"), "\n"),
		hit("private-key", "", "-----BEGIN PRIVATE KEY-----\nComment: \"my key\"\n"+body+"-----END PRIVATE KEY-----", "\n"),
		hit("private-key", "> ", "-----BEGIN PRIVATE KEY-----\n> "+strings.ReplaceAll(body, "\n", "\n> ")+"-----END PRIVATE KEY-----", "\n"),
		hit("private-key", `key = ("`, `-----BEGIN PRIVATE KEY-----\n"
    "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQC7\n"
    "-----END PRIVATE KEY-----`, "\n\")"),
		{name: "a BEGIN with no body keeps its text; the next block is its own",
			in:   "-----BEGIN PRIVATE KEY-----\nsee below\n" + block,
			want: "-----BEGIN PRIVATE KEY-----\nsee below\n" + marker("private-key")},
	})
}
