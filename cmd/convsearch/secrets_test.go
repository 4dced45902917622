package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeSecrets are realistic secrets of the kinds pasted into conversations,
// made up here, built from pieces so that no scanner mistakes this file for
// a leak. Each value is what must never reach the index or an answer.
func fakeSecrets() map[string]string {
	jwtPart := func(s string) string { return base64.RawURLEncoding.EncodeToString([]byte(s)) }
	return map[string]string{
		"aws-access-key-id": "AKIA" + "Z7Q4MX2PL6VBK3TD",
		"aws-secret":        "q8Vd2LmZ/4nR7tWx" + "+Y1bK9eJ3pHs6uFc0gAaT5Ny",
		"github-pat":        "ghp_" + "R4nd0mL00k1ngT0k3nV4lu3F0rT3st1ng9Zq",
		"gitlab-pat":        "glpat-" + "x9Yb7Zq2Wv5Ut8Sr1Pq4",
		"openai":            "sk-" + "Ab3De6Gh9Jk2Mn5Pq8St" + "T3BlbkFJ" + "Vw1Yz4Bc7Ef0Hi3Kl6No",
		"anthropic":         "sk-ant-api03-" + strings.Repeat("Xk9_Lm2-Qp7Rt4Vw", 5) + "Zy8Bq3Wd6Fh1J" + "AA",
		"slack-bot":         "xoxb-" + "2048163264128-4096819238476-" + "Qh7Kp2Ld9Xs4Wm6Nc3Vb8Rt",
		"stripe-live":       "sk_live_" + "51HbQx2Lk9Mn4Pq7Rs0Tu3Vw6",
		"google-api":        "AIza" + "SyD3mF8kQ2nR5tV7wX9yZ1bC4eG6hJ0lKpQ",
		"jwt":               jwtPart(`{"alg":"HS256","typ":"JWT"}`) + "." + jwtPart(`{"sub":"1234567890","name":"Ada","admin":true}`) + "." + "SflKxwRJSMeKKF2QT4fw" + "pMeJf36POk6yJV_adQssw5c",
		"private-key-body":  "MIIEowIBAAKCAQEA" + "7bq9Xk2Lm5Np8Qr1St4Uv7Wx0Yz3Ab6Cd9Ef2Gh5Ij8Kl1Mn4Op7Qr0St3Uv6Wx9Yz",
		"url-password":      "Tr0ub4dor" + "-3xyzQ",
		"env-password":      "correct" + "-horse-battery-staple-42",
	}
}

// secretsConversation is a session that pastes them as people do: a .env
// file, a connection string, a curl with a bearer token, a private key; its
// project, which a portable file names freely, holds one too.
func secretsConversation(s map[string]string) string {
	c := conversationJSON("conv-secrets", "Deploying with key "+s["github-pat"],
		"Here is my .env for the deploy:\nAWS_ACCESS_KEY_ID="+s["aws-access-key-id"]+"\nAWS_SECRET_ACCESS_KEY="+s["aws-secret"]+
			"\nDB_PASSWORD="+s["env-password"]+"\nOPENAI_API_KEY="+s["openai"]+"\nANTHROPIC_API_KEY="+s["anthropic"],
		"The deploy fails because DATABASE_URL=postgres://app:"+s["url-password"]+"@db.internal:5432/app points at the old host. "+
			"Also rotate "+s["gitlab-pat"]+" and "+s["slack-bot"]+"; the Stripe key "+s["stripe-live"]+" is live.",
		"curl -H 'Authorization: Bearer "+s["jwt"]+"' https://api.example.com/deploy?key="+s["google-api"],
		"-----BEGIN RSA PRIVATE KEY-----\n"+s["private-key-body"]+"\n"+s["private-key-body"]+"\n-----END RSA PRIVATE KEY-----\nthat is the deploy key",
		"We decided to move the deploy secrets into the vault because pasting them is risky.",
	)
	return strings.Replace(c, `{"id":`, `{"metadata":{"project":"deploy-`+s["gitlab-pat"]+`"},"id":`, 1)
}

// leaks lists the secrets found in text.
func leaks(secrets map[string]string, text string) []string {
	var out []string
	for kind, v := range secrets {
		if strings.Contains(text, v) {
			out = append(out, kind)
		}
	}
	return out
}

// leaksOnDisk lists the secrets found in the bytes of any file under dir.
func leaksOnDisk(t *testing.T, secrets map[string]string, dir string) []string {
	t.Helper()
	found := map[string]bool{}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for kind, v := range secrets {
			if bytes.Contains(b, []byte(v)) {
				found[kind+" in "+filepath.Base(path)] = true
			}
		}
		return nil
	})
	var out []string
	for k := range found {
		out = append(out, k)
	}
	return out
}

// TestSecretsNeverIndexed indexes a conversation full of fake secrets. With
// redaction turned off (the control: the test can see a leak) they are
// found; with it on, as by default, none can be found by search, in what
// search, show, topics and decisions print, in the API, through MCP, nor in
// any byte of the data folder; and turning it on rebuilds the index.
func TestSecretsNeverIndexed(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the daemon")
	}
	secrets := fakeSecrets()
	home, root := t.TempDir(), t.TempDir()
	writeConv(t, filepath.Join(root, "secrets.json"), secretsConversation(secrets))
	data := filepath.Join(home, "data", "convsearch")
	config := filepath.Join(home, "config", "convsearch", "config.json")
	writeConv(t, config, `{"redact": false}`)
	index := []string{"index", "--data-dir", data, "--no-default-roots", "--root", root}
	if r := cs(t, home, index...); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	r := cs(t, home, "search", "--data-dir", data, "--json", secrets["github-pat"])
	if len(leaks(secrets, hitsText(t, r.stdout))) == 0 || len(leaksOnDisk(t, secrets, data)) == 0 {
		t.Fatalf("control: with redaction off the secrets should be found; the test cannot see a leak\n%s", r.stdout)
	}

	os.Remove(config) // redaction on, as by default
	if r := cs(t, home, index...); r.code != 0 {
		t.Fatalf("index: exit %d\n%s", r.code, r.stderr)
	}
	var answers []string
	for _, q := range []string{"deploy", "vault", "redacted"} {
		r := cs(t, home, "search", "--data-dir", data, "--json", "--limit", "50", q)
		answers = append(answers, r.stdout)
	}
	// Searching for a secret finds no hit that holds it: a hit may match
	// the query's other words ("live" of sk_live_…), and the answer echoes
	// the query, which is the user's own.
	for kind, v := range secrets {
		r := cs(t, home, "search", "--data-dir", data, "--json", v)
		if l := leaks(secrets, hitsText(t, r.stdout)); len(l) > 0 {
			t.Errorf("searching for the %s finds hits holding %v", kind, l)
		}
	}
	for _, args := range [][]string{
		{"show", "--data-dir", data, "--json", "conv-secrets"},
		{"topics", "--data-dir", data, "--json"},
		{"decisions", "--data-dir", data, "--json"},
		{"parse", "--json", root},
	} {
		r := cs(t, home, args...)
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", args[0], r.code, r.stderr)
		}
		answers = append(answers, r.stdout)
	}
	all := strings.Join(answers, "\n")
	if l := leaks(secrets, all); len(l) > 0 {
		t.Errorf("the command line's answers hold secrets: %v", l)
	}
	if !strings.Contains(all, "[redacted: ") {
		t.Errorf("no redaction marker in the answers: a reader cannot tell what was there")
	}
	if strings.Contains(strings.ToLower(cs(t, home, "topics", "--data-dir", data, "--json").stdout), "redacted") {
		t.Errorf("the marker became a topic")
	}
	if l := leaksOnDisk(t, secrets, data); len(l) > 0 {
		t.Errorf("the data folder holds secrets: %v", l)
	}

	// The daemon: its API and MCP through it.
	d := startServe(t, home, root)
	get := func(path string) string {
		req, _ := http.NewRequest("GET", d.url+path, nil)
		req.Header.Set("Authorization", "Bearer "+d.token)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: HTTP %d %s", path, resp.StatusCode, b)
		}
		return string(b)
	}
	answers = answers[:0]
	if l := leaks(secrets, hitsText(t, get("/api/search?q="+url.QueryEscape(secrets["github-pat"])))); len(l) > 0 {
		t.Errorf("the API's hits for a secret hold %v", l)
	}
	for _, p := range []string{"/api/search?q=deploy", "/api/conversations/conv-secrets", "/api/topics", "/api/decisions"} {
		answers = append(answers, get(p))
	}
	p := startMCP(t, home)
	answers = append(answers,
		resultText(p.call(t, "search_conversations", map[string]any{"query": "deploy"})),
		resultText(p.call(t, "get_conversation", map[string]any{"id": "conv-secrets"})),
	)
	all = strings.Join(answers, "\n")
	if !strings.Contains(all, "deploy") {
		t.Fatalf("the daemon's answers do not hold the conversation: %.500s", all)
	}
	if l := leaks(secrets, all); len(l) > 0 {
		t.Errorf("the API or MCP answers hold secrets: %v", l)
	}
}

// hitsText is the hits of a search answer in JSON, without the query it
// echoes.
func hitsText(t *testing.T, answer string) string {
	t.Helper()
	var res struct {
		Hits json.RawMessage `json:"hits"`
	}
	if err := json.Unmarshal([]byte(answer), &res); err != nil {
		t.Fatalf("not a search answer (%v): %.300s", err, answer)
	}
	return string(res.Hits)
}

// hitsOf is the total of a search answer in JSON.
func hitsOf(t *testing.T, answer string) int {
	t.Helper()
	var res struct {
		Total *int `json:"total"`
	}
	if err := json.Unmarshal([]byte(answer), &res); err != nil || res.Total == nil {
		t.Fatalf("not a search answer (%v): %.300s", err, answer)
	}
	return *res.Total
}
