// The token rules below are adapted from gitleaks' default configuration,
// config/gitleaks.toml at commit 009e025ad4106ab333aa0b9dc4f2a884390d134c
// of https://github.com/gitleaks/gitleaks (rule ids, regexes, keywords and
// entropy thresholds; some regexes are simplified or widened, and the
// rules marked "not in gitleaks" are ours). gitleaks is
//
//	MIT License
//
//	Copyright (c) 2019 Zachary Rice
//
//	Permission is hereby granted, free of charge, to any person obtaining a
//	copy of this software and associated documentation files (the
//	"Software"), to deal in the Software without restriction, including
//	without limitation the rights to use, copy, modify, merge, publish,
//	distribute, sublicense, and/or sell copies of the Software, and to
//	permit persons to whom the Software is furnished to do so, subject to
//	the following conditions:
//
//	The above copyright notice and this permission notice shall be included
//	in all copies or substantial portions of the Software.
//
//	THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
//	OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
//	MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
//	IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
//	CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
//	TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
//	SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
//
// gitleaks' generic-api-key rule is not ported: the key = value detector in
// assign.go does its job with key-name and placeholder checks instead.

package redact

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
)

// rule is one kind of secret recognised by its shape.
type rule struct {
	id string
	// keywords are case-sensitive literals, one of which any match
	// contains; the regexp runs only on a text holding one. A keyword of
	// lower-case letters only costs a pass of its own (see prefilter):
	// spell one with its next punctuation instead where that is certain.
	keywords []string
	re       source
	// group is the submatch that is the secret, 0 for the whole match.
	group int
	// entropy is the least Shannon entropy (bits per byte) of a secret;
	// lower is a made-up or repeated string.
	entropy float64
	// allowSuffix marks published example keys (AWS documentation).
	allowSuffix []string
	// checkValue rejects placeholders and identifiers, for rules whose
	// secret is a free value (a Bearer token, a curl password).
	checkValue bool
	// back is how far before its keyword a match can start. At 0 the match
	// starts at the keyword, and anchored is tried there alone: a regexp
	// never scans a whole text.
	back int
	// gate, when set, checks by hand around the keyword at s[at] what a
	// match needs before it, and returns where the match must start
	// (at-back or later), or -1 to skip it: a regexp run at every
	// keyword cost much more than the text's scan. The anchored regexp is
	// tried there alone.
	gate func(s string, at, back int) int
	// failNext, when set, returns where the anchored regexp of a rule
	// with no window, having found nothing at its keyword at s[at], can
	// match next: the bytes up to there were all tried at once, and a
	// keyword among them would try them again, to the end of a long line.
	failNext  func(s string, at int) int
	wordStart bool // the regexp starts with \b
	// check, when set, judges a match m (submatch bounds in s) that passed
	// the other checks: it returns the marker's id, or "" to keep the text.
	check func(s string, m []int) string
	// compiled holds what is built from re when the rule is first used:
	// compiling every rule took 8 to 11 ms, which each command that opens
	// the index (and so needs the rules' Version) paid, though a search
	// redacts nothing.
	compiled *compiledRule
}

// source is a rule's regular expression, as written.
type source string

// String returns the expression, as (*regexp.Regexp).String does: Version
// hashes it.
func (s source) String() string { return string(s) }

// compiledRule is a rule's regexps, built once.
type compiledRule struct {
	once     sync.Once
	re       *regexp.Regexp
	anchored *regexp.Regexp
	// window bounds a match's length after its keyword (0: no bound).
	window int
}

// compile returns r's regexps, compiling them on first use.
func (r *rule) compile() *compiledRule {
	c := r.compiled
	c.once.Do(func() {
		src := string(r.re)
		c.re = regexp.MustCompile(src)
		c.window = 0 // unbounded: a private key block
		if n := maxLen(src); n >= 0 {
			c.window = n + r.back + 1
		}
		c.anchored = regexp.MustCompile(`^(?:` + src + `)`)
	})
	return c
}

// detectorsVersion is bumped when the code of assign.go or of a rule's
// check changes what it redacts (its main word lists are hashed by Version
// already; keyQualifiers, onsets and twoLetterWords are not).
const detectorsVersion = 18

// fieldsVersion is bumped when eachText redacts other fields of a
// conversation (2: attachment names and artifact paths; 3: the project;
// 4: models, tool names, note kinds, branches, attachment refs and types;
// 5: a secret found in one field is replaced in every other).
const fieldsVersion = 5

// tokenEnd ends a token: anything that cannot continue it, or the text's end.
const tokenEnd = `(?:[^0-9A-Za-z_-]|$)`

// withBack is r with back set: the match may start n bytes before its
// keyword.
func (r rule) withBack(n int) rule {
	r.back = n
	return r
}

// withFailNext is r with failNext set.
func (r rule) withFailNext(f func(s string, at int) int) rule {
	r.failNext = f
	return r
}

// cookieEnd is where the cookie rule's match must end, the first of \r \n
// " ' < > after its keyword at s[at]: when it found no cookie up to there,
// a Cookie: further on in the same run (Cookie: a=Cookie: a=…) finds none
// either, since the first try spanned it.
func cookieEnd(s string, at int) int {
	for i := at; i < len(s); i++ {
		switch s[i] {
		case '\r', '\n', '"', '\'', '<', '>':
			return i + 1
		}
	}
	return len(s)
}

func defaultRules() []rule {
	r := func(id string, keywords []string, re string, group int, entropy float64) rule {
		return rule{id: id, keywords: keywords, re: source(re), group: group, entropy: entropy}
	}
	kw := func(k ...string) []string { return k }
	rules := []rule{
		r("private-key", kw("-----BEGIN"),
			`-----BEGIN[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`+
				// whole block up to its END line, the body's newlines real or \n escapes,
				// its dashes fewer than five in a row (Proc-Type, AES-128-CBC): the
				// body never runs past the next armour line, so a BEGIN with no END
				// is not read to the text's end at every BEGIN after it …
				// quotes and > allowed (a header's "comment", a key quoted line by
				// line in a program or a Markdown quote) …
				`(?:(?:[A-Za-z0-9+/=:,. "'>]|-{1,4}[A-Za-z0-9+/=:,. "'>\s]|\s|\\+[nrt])*?-----END[ A-Z0-9_-]{0,100}PRIVATE KEY(?: BLOCK)?-----`+
				// … or, truncated, as far as the base64 lines go, after any
				// header lines (Proc-Type: 4,ENCRYPTED, DEK-Info: …)
				`|(?:(?:\s|\\+[nrt])*[A-Z][A-Za-z-]{1,30}:[^\r\n\\]{1,200})*(?:(?:\s|\\+[nrt]|[>"'])*[A-Za-z0-9+/=]{16,})+)`, 0, 0),
		{id: "aws-access-key-id", keywords: kw("AKIA", "ASIA", "ABIA", "ACCA", "A3T"),
			re:    source(`\b((?:A3T[A-Z0-9]|AKIA|ASIA|ABIA|ACCA)[A-Z2-7]{16})\b`),
			group: 1, entropy: 3, allowSuffix: []string{"EXAMPLE"}},
		// not in gitleaks (it dropped its rule): a 40-character key next to an
		// AWS secret key name.
		{id: "aws-secret-access-key",
			keywords: kw("aws_", "aws-", "aws.", "awsS", "awsP", "AWS", "Aws", "SecretAccessKey", "secretAccessKey", "secret_access_key", "SECRET_ACCESS_KEY"),
			re:       source(`(?i)(?:aws[\w.-]{0,20}?(?:secret|private)|secret_?access_?key)[\w.-]{0,20}?[\s'"\\]{0,4}(?:=|:|=>|:=)[\s'"\\]{0,6}([A-Za-z0-9/+]{40})(?:[^A-Za-z0-9/+=]|$)`),
			group:    1, entropy: 3.5, allowSuffix: []string{"EXAMPLEKEY"}},

		r("github-pat", kw("ghp_"), `\b(ghp_[0-9a-zA-Z]{36})`+tokenEnd, 1, 3),
		r("github-oauth", kw("gho_"), `\b(gho_[0-9a-zA-Z]{36})`+tokenEnd, 1, 3),
		r("github-app-token", kw("ghu_", "ghs_"), `\b((?:ghu|ghs)_[0-9a-zA-Z]{36})`+tokenEnd, 1, 3),
		r("github-refresh-token", kw("ghr_"), `\b(ghr_[0-9a-zA-Z]{36})`+tokenEnd, 1, 3),
		r("github-fine-grained-pat", kw("github_pat_"), `\b(github_pat_\w{82})`+tokenEnd, 1, 3),

		r("gitlab-pat", kw("glpat-"), `\bglpat-[0-9A-Za-z_-]{20,300}(?:\.[0-9a-z]{9}\b)?`, 0, 3),
		r("gitlab-token",
			kw("glrt-", "gldt-", "glft-", "glsoat-", "glffct-", "glptt-", "gloas-", "glimt-", "glagent-", "glcbt-", "GR1348941"),
			`\b(?:(?:glrt|gldt|glft|glsoat|glffct)-[0-9A-Za-z_-]{20,256}|glptt-[0-9a-f]{40}|gloas-[0-9A-Za-z_-]{64}|glimt-[0-9A-Za-z_-]{25}|glagent-[0-9A-Za-z_-]{50}|glcbt-[0-9A-Za-z]{1,5}_[0-9A-Za-z_-]{20}|GR1348941[\w-]{20})`, 0, 3),

		r("slack-bot-token", kw("xoxb-"), `xoxb-[0-9]{10,13}-[0-9]{10,13}[a-zA-Z0-9-]*|xoxb-[0-9]{8,14}-[a-zA-Z0-9]{18,26}`, 0, 3),
		r("slack-user-token", kw("xoxp-", "xoxe-"), `xox[pe](?:-[0-9]{10,13}){3}-[a-zA-Z0-9-]{28,34}`, 0, 2),
		r("slack-app-token", kw("xapp-"), `(?i)xapp-\d-[A-Z0-9]+-\d+-[a-z0-9]+`, 0, 2),
		r("slack-legacy-token", kw("xoxo-", "xoxs-", "xoxa-", "xoxr-"), `xox[os]-\d+-\d+-\d+-[a-fA-F\d]+|xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}`, 0, 2),
		r("slack-webhook-url", kw("hooks.slack.com"), `hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9+/]{43,56}`, 0, 0),

		r("stripe-access-token", kw("sk_test", "sk_live", "sk_prod", "rk_test", "rk_live", "rk_prod"),
			`\b((?:sk|rk)_(?:test|live|prod)_[a-zA-Z0-9]{10,99})`+tokenEnd, 1, 2),
		// not in gitleaks: Stripe (and Svix) webhook signing secrets.
		r("stripe-webhook-secret", kw("whsec_"), `\b(whsec_[A-Za-z0-9+/]{24,100}={0,2})`+tokenEnd, 1, 3),
		r("gcp-api-key", kw("AIza"), `\b(AIza[\w-]{35})`+tokenEnd, 1, 4),
		// not in gitleaks: Google OAuth client secrets and refresh tokens.
		r("gcp-oauth-secret", kw("GOCSPX-", "1//0"), `\b(GOCSPX-[A-Za-z0-9_-]{28}|1//0[A-Za-z0-9_-]{40,512})`+tokenEnd, 1, 3),
		// not in gitleaks: Google OAuth access tokens.
		r("gcp-oauth-access-token", kw("ya29."), `\b(ya29\.[A-Za-z0-9_-]{30,1000})`+tokenEnd, 1, 3),

		r("anthropic-api-key", kw("sk-ant-"), `\b(sk-ant-[a-z]{2,8}[0-9]{2}-[A-Za-z0-9_-]{32,256})`+tokenEnd, 1, 3.5),
		// gitleaks requires the T3BlbkFJ marker; today's project and service
		// keys lack it, and OpenAI-compatible providers issue plain sk- keys.
		r("openai-api-key", kw("sk-"),
			`\b(sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{40,512}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20}|sk-[A-Za-z0-9]{32,512})`+tokenEnd, 1, 3.5),
		// not in gitleaks: other model providers' keys.
		r("openrouter-api-key", kw("sk-or-"), `\b(sk-or-v[0-9]-[a-f0-9]{64})`+tokenEnd, 1, 3),
		r("xai-api-key", kw("xai-"), `\b(xai-[A-Za-z0-9]{70,90})`+tokenEnd, 1, 3.5),
		r("groq-api-key", kw("gsk_"), `\b(gsk_[A-Za-z0-9]{52})`+tokenEnd, 1, 3.5),
		r("replicate-api-token", kw("r8_"), `\b(r8_[A-Za-z0-9]{37})`+tokenEnd, 1, 3.5),
		r("perplexity-api-key", kw("pplx-"), `\b(pplx-[a-zA-Z0-9]{48})`+tokenEnd, 1, 4),
		r("huggingface-access-token", kw("hf_"), `\b(hf_[A-Za-z]{34})`+tokenEnd, 1, 2),
		r("huggingface-org-token", kw("api_org_"), `\b(api_org_[A-Za-z]{34})`+tokenEnd, 1, 2),

		r("npm-access-token", kw("npm_"), `\b(npm_[A-Za-z0-9]{36})`+tokenEnd, 1, 2),
		r("pypi-upload-token", kw("pypi-AgEIcHlwaS5vcmc"), `pypi-AgEIcHlwaS5vcmc[\w-]{50,1000}`, 0, 3),
		r("rubygems-api-token", kw("rubygems_"), `\b(rubygems_[a-f0-9]{48})`+tokenEnd, 1, 2),
		r("twilio-api-key", kw("SK"), `\b(SK[0-9a-fA-F]{32})\b`, 1, 3),
		r("sendgrid-api-token", kw("SG."), `\b(SG\.[A-Za-z0-9=_.-]{66})`+tokenEnd, 1, 2),
		r("mailchimp-api-key", kw("-us"), `\b([a-f0-9]{32}-us[0-9]{1,2})\b`, 1, 3).withBack(34),
		r("digitalocean-pat", kw("dop_v1_"), `\b(dop_v1_[a-f0-9]{64})`+tokenEnd, 1, 3),
		r("digitalocean-access-token", kw("doo_v1_"), `\b(doo_v1_[a-f0-9]{64})`+tokenEnd, 1, 3),
		r("digitalocean-refresh-token", kw("dor_v1_"), `\b(dor_v1_[a-f0-9]{64})`+tokenEnd, 1, 3),
		r("heroku-api-key", kw("heroku_", "heroku-", "heroku.", "HEROKU", "Heroku"),
			`(?i)heroku[\w.-]{0,20}[\s'"\\]{0,4}(?:=|:|=>)[\s'"\\]{0,6}([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\b`, 1, 0),
		r("heroku-api-key-v2", kw("HRKU-AA"), `\b(HRKU-AA[0-9a-zA-Z_-]{58})`+tokenEnd, 1, 4),
		// not in gitleaks: the key of an Azure connection string.
		r("azure-connection-key", kw("AccountKey", "SharedAccessKey"),
			`\b(?:AccountKey|SharedAccessKey)\s*=\s*([A-Za-z0-9+/]{20,512}={0,2})`, 1, 3),
		r("azure-ad-client-secret", kw("Q~"),
			`(?:^|[\\'"\x60\s>=:(,)])([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\'"\x60\s<),])`, 1, 3).withBack(6),
		r("databricks-api-token", kw("dapi"), `\b(dapi[a-f0-9]{32}(?:-\d)?)`+tokenEnd, 1, 3),
		r("shopify-token", kw("shpat_", "shpca_", "shppa_", "shpss_"), `\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`, 0, 2),
		r("linear-api-key", kw("lin_api_"), `\blin_api_[A-Za-z0-9]{40}\b`, 0, 2),
		r("pulumi-api-token", kw("pul-"), `\b(pul-[a-f0-9]{40})`+tokenEnd, 1, 2),
		r("grafana-token", kw("glc_", "glsa_"), `\b(glc_[A-Za-z0-9+/]{32,400}={0,3}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8})`+tokenEnd, 1, 3),
		r("vault-token", kw("hvs.", "hvb."), `\b(hvs\.[\w-]{90,120}|hvb\.[\w-]{138,300})`+tokenEnd, 1, 3.5),
		r("sentry-token", kw("sntryu_", "sntrys_"), `\b(sntryu_[a-f0-9]{64}|sntrys_[A-Za-z0-9+/=_]{80,400})`+tokenEnd, 1, 3.5),
		r("doppler-api-token", kw("dp.pt."), `dp\.pt\.[A-Za-z0-9]{43}`, 0, 2),
		r("planetscale-token", kw("pscale_"), `\b(pscale_(?:tkn|oauth|pw)_[\w=.-]{32,64})`+tokenEnd, 1, 3),
		r("postman-api-token", kw("PMAK-"), `\b(PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34})`+tokenEnd, 1, 3),
		r("age-secret-key", kw("AGE-SECRET-KEY-1"), `AGE-SECRET-KEY-1[QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58}`, 0, 0),
		r("notion-api-token", kw("ntn_"), `\b(ntn_[0-9]{11}[A-Za-z0-9]{35})`+tokenEnd, 1, 4),
		r("new-relic-user-api-key", kw("NRAK-"), `\b(NRAK-[A-Z0-9]{27})`+tokenEnd, 1, 3),
		r("atlassian-api-token", kw("ATATT3"), `\b(ATATT3[A-Za-z0-9_=-]{186})`+tokenEnd, 1, 3.5),
		r("flyio-access-token", kw("fo1_", "fm1", "fm2_"), `\b(fo1_[\w-]{43}|fm[12][ar]?_[a-zA-Z0-9+/]{100,}={0,3})`+tokenEnd, 1, 4),
		r("1password-service-account-token", kw("ops_eyJ"), `ops_eyJ[a-zA-Z0-9+/]{250,}={0,3}`, 0, 4),
		r("square-access-token", kw("sq0atp-", "sq0csp-"), `\b(sq0atp-[\w-]{22,60}|sq0csp-[\w-]{43})`+tokenEnd, 1, 2),
		// gitleaks keys this on the word "telegram" nearby; the shape alone
		// (bot id, colon, AA…) is distinctive enough.
		r("telegram-bot-api-token", kw(":AA"), `(?:^|[^0-9])([0-9]{8,10}:AA[A-Za-z0-9_-]{33})`+tokenEnd, 1, 3).withBack(12),

		r("jwt", kw("eyJ"), `\b(ey[a-zA-Z0-9]{17,}\.ey[a-zA-Z0-9_-]{17,}\.(?:[a-zA-Z0-9_-]{10,}={0,2})?)`+`(?:[^0-9A-Za-z_.=-]|$)`, 1, 3),
		// not in gitleaks as such (its curl rules cover part): Authorization
		// values wherever they appear.
		{id: "bearer-token", keywords: kw("Bearer", "BEARER"),
			re:    source(`\b(?:Bearer|bearer|BEARER)[ \t]+([A-Za-z0-9._~+/-]{16,}=*)`),
			group: 1, entropy: 3, checkValue: true},
		{id: "basic-auth", keywords: kw("Authorization", "AUTHORIZATION"),
			re:    source(`(?i)\bauthorization["'\\]*\s*[:=]\s*["'\\]*basic[ \t]{1,4}([A-Za-z0-9+/]{8,1000}={0,2})`),
			group: 1, entropy: 2.5, checkValue: true},
		// gitleaks requires "curl" before the flag; -u user:password is
		// curl's own spelling, and the flag alone keeps the scan cheap.
		{id: "curl-auth-user", keywords: kw("-u ", "-u=", "--user"),
			re:    source(`(?:-u|--user)(?:=|[ \t]{1,5})["']?[^\s"':]{1,100}:([^\s"']{3,100})`),
			group: 1, checkValue: true},

		// not in gitleaks: URLs that are credentials themselves.
		r("discord-webhook-url", kw("discord.com/api/", "discordapp.com/api/"),
			`discord(?:app)?\.com/api/(?:v[0-9]{1,2}/)?webhooks/([0-9]{17,20}/[A-Za-z0-9_-]{60,80})`+tokenEnd, 1, 3),
		// An HTTP Cookie or Set-Cookie header pasted with a session in it:
		// its value up to the line's end, when a cookie of it has a
		// token's length (not in gitleaks). "theme=dark; Path=/" is kept.
		r("http-cookie", kw("Cookie:", "cookie:", "COOKIE:"),
			`(?i)cookie:[ \t]*([^\r\n"'<>]*=[A-Za-z0-9%._~+/-]{16,}[^\r\n"'<>]*)`, 1, 3).withFailNext(cookieEnd),
		r("presigned-url-signature", kw("X-Amz-Signature=", "x-amz-signature=", "X-Goog-Signature=", "x-goog-signature="),
			`(?i)x-(?:amz|goog)-signature=([0-9a-f]{64}(?:[0-9a-f]{448})?)\b`, 1, 3),

		// The forms below need a key name judged as assign.go judges one:
		// their check does it. None is in gitleaks.
		// .netrc: machine host login user password secret (one line or many).
		// Its keyword is the prose rule's: a keyword of lower case only costs
		// a pass over the text, which the two share.
		{id: idPassword, keywords: kw("password "),
			re:    source(`\b(?:machine[ \t]{1,20}[^\s]{1,100}|default)(?:\s{1,20}(?:login|account|port)[ \t]{1,20}[^\s]{1,100}){0,3}\s{1,20}password[ \t]{1,20}"?([^\s"]{1,200})`),
			group: 1, check: checkNetrc, back: 440, gate: netrcStart},
		// Dockerfile ENV KEY value (ENV KEY=value is an assignment).
		{id: idPassword, keywords: kw("ENV ", "ENV\t"),
			re:    source(`\bENV[ \t]{1,20}([A-Za-z_][A-Za-z0-9_.-]{0,63})[ \t]{1,20}["']?([^\s"']{1,300})`),
			group: 2, check: checkSpacedKey},
		// Shells that set a variable without =: setx KEY value (Windows),
		// set -x KEY value (fish), setenv KEY value (csh), export KEY value.
		// set KEY=value and $env:KEY = "value" are assignments.
		// The keyword is the key's last word: a lower-case command would
		// cost a pass over every text (see prefilter); "password " is the
		// prose rule's pass already. shellSetStart checks the command
		// before the key by hand, so that the regexp runs at no PRIMARY KEY.
		// The value is quoted (maybe JSON-escaped) or bare; checkShellSpaced
		// takes its quotes off.
		{id: idPassword, keywords: kw("PASSWORD ", "PASSWD ", "PWD ", "PASS ", "PASSPHRASE ", "TOKEN ", "SECRET ", "KEY ", "AUTH ", "password ", "Password ",
			"PASSWORD\t", "PASSWD\t", "PWD\t", "PASS\t", "PASSPHRASE\t", "TOKEN\t", "SECRET\t", "KEY\t", "AUTH\t", "Password\t"),
			re:    source(`\b(?i:set(?:[ \t]{1,4}-[a-z]{1,4}){0,3}|setx(?:[ \t]{1,4}/[a-z]{1,2})?|setenv|export)[ \t]{1,4}([A-Za-z_][A-Za-z0-9_]{0,63})[ \t]{1,4}("[^"\n]{1,300}"|'[^'\n]{1,300}'|\\"[^"\\\n]{1,300}\\"|[^\s"'][^\s"]{0,299})`),
			group: 2, check: checkShellSpaced, back: 96, gate: shellSetStart},
		// XML: <password>…</password>, <ApiKey>…</ApiKey>.
		{id: idPassword, keywords: kw("assword>", "ASSWORD>", "asswd>", "ASSWD>", "wd>", "WD>", "ass>", "ASS>", "ecret>", "ECRET>", "oken>", "OKEN>", "ey>", "EY>", "hrase>", "HRASE>"),
			re:    source(`<([A-Za-z_][\w.:-]{0,63})>[ \t]{0,20}([^<>\s]{1,300})[ \t]{0,20}</([A-Za-z_][\w.:-]{0,63})>`),
			group: 2, check: checkXMLElement, back: 72, gate: xmlStart}, // the keyword ends the opening tag's name
		// Prose: my password is Xk9mPq2z!, password "Tr0ub4dor&3x".
		{id: idPassword, keywords: kw("password ", "Password ", "PASSWORD "),
			re:    source(`(?i)\bpassword[ \t]{1,20}(?:(?:is|was)[ \t]{1,20}(?:(?:now|still)[ \t]{1,20})?["'\x60]?|["'\x60])([^\s"'\x60]{1,200})`),
			group: 1, check: checkProsePassword},
		// A PIN given by name: PIN 4821, pin code 4821, my PIN is 4821,
		// Passcode 123456 (PIN: 4821 and passcode=123456 are assignments too; a
		// keyword of lower case only costs a pass, so "pin " is the only one).
		{id: idPassword, keywords: kw("pin ", "Pin ", "PIN", "passcode ", "Passcode ", "PASSCODE "),
			re:    source(`\b(?i:(pin(?:[ _-]?(?:code|number))?|passcode))(?:[ \t]{1,4}(?i:is|was))?([ \t]{0,4}[:=])?[ \t]{0,4}["']?([0-9]{4,12})\b`),
			group: 3, check: checkPIN},
	}
	for i := range rules {
		ru := &rules[i]
		ru.wordStart = strings.HasPrefix(string(ru.re), `\b`)
		ru.compiled = &compiledRule{}
	}
	return rules
}

// match appends the secrets rule r finds around its keyword at s[at:], and
// returns where its next match can start. prio is r's place in the rule
// list: where two rules find the same secret, the first listed names it.
func (r *rule) match(s string, at, prio int, out []span) ([]span, int) {
	c := r.compile()
	end := len(s)
	if c.window > 0 {
		end = min(end, at+c.window)
	}
	if r.back == 0 {
		if r.wordStart && at > 0 && isWordByte(s[at-1]) {
			return out, at + 1
		}
		if c.window > 0 {
			// An unbounded rule is not counted: its anchored regexp
			// stops where its pattern fails, which is not known here.
			examined(end - at)
		}
		if m := c.anchored.FindStringSubmatchIndex(s[at:end]); m != nil {
			n := len(out)
			if out = r.accept(s, at, m, prio, out); len(out) > n {
				return out, out[len(out)-1].end
			}
		}
		if r.failNext != nil {
			// Nothing matched, or a match judged no secret (a cookie of
			// low entropy): the bytes up to failNext were read.
			next := r.failNext(s, at)
			examined(next - at)
			return out, next
		}
		return out, at + 1
	}
	start := max(0, at-r.back)
	next := at + 1
	if r.gate != nil {
		if start = r.gate(s, at, r.back); start < 0 {
			return out, next
		}
		examined(end - start)
		if m := c.anchored.FindStringSubmatchIndex(s[start:end]); m != nil {
			n := len(out)
			if out = r.accept(s, start, m, prio, out); len(out) > n {
				return out, max(next, out[n].end)
			}
		}
		return out, next
	}
	examined(end - start)
	for _, m := range c.re.FindAllStringSubmatchIndex(s[start:end], -1) {
		n := len(out)
		out = r.accept(s, start, m, prio, out)
		if len(out) > n {
			next = max(next, out[len(out)-1].end)
		}
	}
	return out, next
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

// accept appends the secret of submatch m, found in s[base:], unless it
// fails the rule's checks.
func (r *rule) accept(s string, base int, m []int, prio int, out []span) []span {
	for i := range m {
		if m[i] >= 0 {
			m[i] += base
		}
	}
	a, b := m[0], m[1]
	if r.group > 0 {
		a, b = m[2*r.group], m[2*r.group+1]
	}
	if a < 0 || a == b {
		return out
	}
	secret := s[a:b]
	switch {
	case r.entropy > 0 && entropy(secret) < r.entropy,
		r.allowed(secret),
		r.checkValue && !plausibleValue(secret, false):
		return out
	}
	id := r.id
	if r.check != nil {
		if id = r.check(s, m); id == "" {
			return out
		}
		if r.group > 0 {
			a, b = m[2*r.group], m[2*r.group+1] // the check may trim it
		}
	}
	return append(out, span{start: a, end: b, id: id, prio: prio})
}

func (r *rule) allowed(secret string) bool {
	for _, suf := range r.allowSuffix {
		if strings.HasSuffix(secret, suf) {
			return true
		}
	}
	return false
}

// maxLen returns the most bytes a match of the regexp src can span, or -1
// when that is unbounded. It bounds the text a rule's regexp is run on.
func maxLen(src string) int {
	re, err := syntax.Parse(src, syntax.Perl)
	if err != nil {
		return -1
	}
	return maxLenOf(re.Simplify())
}

func maxLenOf(re *syntax.Regexp) int {
	switch re.Op {
	case syntax.OpLiteral:
		return len(string(re.Rune)) * 3 // case folding can widen a rune
	case syntax.OpCharClass, syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return 4
	case syntax.OpCapture:
		return maxLenOf(re.Sub[0])
	case syntax.OpConcat:
		n := 0
		for _, sub := range re.Sub {
			m := maxLenOf(sub)
			if m < 0 {
				return -1
			}
			n += m
		}
		return n
	case syntax.OpAlternate:
		n := 0
		for _, sub := range re.Sub {
			m := maxLenOf(sub)
			if m < 0 {
				return -1
			}
			n = max(n, m)
		}
		return n
	case syntax.OpQuest:
		return maxLenOf(re.Sub[0])
	case syntax.OpRepeat:
		m := maxLenOf(re.Sub[0])
		if m < 0 || re.Max < 0 {
			return -1
		}
		return m * re.Max
	case syntax.OpStar, syntax.OpPlus:
		return -1
	}
	return 0 // empty-width: ^ $ \b
}
