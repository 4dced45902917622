// Package redact replaces secrets in conversation text with markers before it
// is indexed, so that a pasted key is neither searchable nor returned.
//
// A secret becomes "[redacted: <rule-id>]". What is caught:
//
//   - provider keys and tokens by their shape, with rules adapted from
//     gitleaks' default set (see rules.go): AWS access key ids (and secret
//     keys next to an aws/secret key name), GitHub (ghp_, gho_, ghu_, ghs_,
//     ghr_, github_pat_), GitLab (glpat-, glrt-, gldt-, …), Slack tokens and
//     webhooks, Stripe, Google API keys, OpenAI and Anthropic keys,
//     Hugging Face, npm, PyPI, Twilio, SendGrid, DigitalOcean, Heroku,
//     Databricks, Shopify, Vault, Grafana, Sentry and more;
//   - JSON Web Tokens, Bearer and Basic authorization values;
//   - private key blocks, whole, also when their newlines are literal \n
//     escapes inside a JSON string;
//   - Azure connection-string keys (AccountKey=, SharedAccessKey=);
//   - the password of a URL (scheme://user:PASSWORD@host keeps the rest);
//   - the value of a secret-looking key (password, passwd, pwd, secret,
//     token, api_key, access_key, private_key, client_secret, auth,
//     credentials, …; Passwort, mot de passe, contraseña, senha, hasło,
//     пароль, …) in KEY=value, KEY: value and "key": "value" forms, also
//     URL-encoded (password%3D…, its decoded form replaced too where it
//     occurs again), set by a shell without = (setx KEY value, quoted or bare),
//     and as the Value of a JSON object whose Name a few keys away names
//     a secret (AWS SSM parameters);
//   - PINs and passwords of digits only under a key that names them
//     (PIN: 4821, pin code 4821, passcode=4821, mot de passe: 48213390).
//
// What is kept: code, identifiers and type annotations (token: string),
// placeholders (<your-password>, ${PASSWORD}, xxx, changeme, your-key-here:
// placeholder words only as whole words, so MySecret2024! is a secret),
// hex hashes, UUIDs and ids (unless a key name says they are a secret),
// paths, and base64 payloads (an image is not a secret; parsers drop them).
// Every other occurrence of a secret found once in a text is replaced too.
package redact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"sync/atomic"

	"github.com/convsearch/convsearch/conversation"
)

// Redactor replaces secrets with markers. Safe for concurrent use: it holds
// only tables built by New.
type Redactor struct {
	rules   []rule
	pre     *prefilter
	version string
}

// span is one secret found in a text: s[start:end], caught by rule id.
type span struct {
	start, end int
	id         string
	prio       int // lower wins when spans overlap at the same start
	// echo is the secret as it is written elsewhere, when that differs
	// from s[start:end]: decoded, for a URL-encoded one.
	echo string
}

// New returns a Redactor with the default rule set.
func New() *Redactor {
	r := &Redactor{rules: defaultRules()}
	r.pre = newPrefilter(r.rules)
	r.version = r.hash()
	return r
}

// Version is a short stable hash of the rule set: the rules, keywords,
// thresholds and word lists, detectorsVersion for the code of the key =
// value and URL detectors, and fieldsVersion for which fields are
// redacted. The index records it: a change means text indexed before may
// hold what the new rules redact.
func (r *Redactor) Version() string { return r.version }

func (r *Redactor) hash() string {
	h := sha256.New()
	fmt.Fprintf(h, "detectors %d fields %d\n", detectorsVersion, fieldsVersion)
	for _, ru := range r.rules {
		fmt.Fprintf(h, "%s\x00%q\x00%d\x00%g\x00%q\n", ru.id, ru.keywords, ru.group, ru.entropy, ru.re)
	}
	fmt.Fprintf(h, "%q %q %q %q %q %q %q %q %q %q %q\n", placeholderMarks, placeholderWords, placeholderWeakWords, placeholderValues, placeholderSuffixes, identWords, secretWords, passwordWords, []string{idPassword, idSecret, idURLPassword}, onsets, twoLetterWords)
	flags := make([]string, 0, len(passwordFlags))
	for cmd, f := range passwordFlags {
		flags = append(flags, cmd+" -"+string(f))
	}
	sort.Strings(flags)
	fmt.Fprintf(h, "%q\n", flags)
	for _, m := range []map[string]bool{passwordParts, lastKeyParts, excludeLast, excludeAny, keyQualifiers, tokenQualifiers} {
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		fmt.Fprintf(h, "%q\n", keys)
	}
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// work, when set, counts the bytes the detectors examine: a test checks
// that this grows linearly with a text's length. Nil outside that test.
var work atomic.Pointer[atomic.Int64]

// examined adds n bytes to work.
func examined(n int) {
	if c := work.Load(); c != nil {
		c.Add(int64(n))
	}
}

// String returns s with every secret replaced by a marker, and how many
// were replaced. When nothing is found it returns s itself, without
// allocating.
func (r *Redactor) String(s string) (string, int) {
	spans := r.find(s)
	if len(spans) == 0 {
		return s, 0
	}
	return apply(s, spans)
}

// find returns the secrets in s, overlaps resolved, in order.
func (r *Redactor) find(s string) []span {
	var spans []span
	var next [maxRules]int // where each rule's next match can start
	r.pre.each(s, func(at int, l *literal) {
		for i := range r.rules {
			if l.rules.has(i) && at >= next[i] {
				spans, next[i] = r.rules[i].match(s, at, i, spans)
			}
		}
	})
	if strings.IndexByte(s, '=') >= 0 || strings.IndexByte(s, ':') >= 0 {
		spans = findAssignments(s, spans)
	}
	if strings.IndexByte(s, '-') >= 0 {
		spans = findFlagPasswords(s, spans)
	}
	if strings.IndexByte(s, '%') >= 0 {
		spans = findEncodedAssignments(s, spans)
	}
	spans = findURLPasswords(s, spans)
	if len(spans) > 0 && strings.Contains(s, MarkerPrefix) {
		spans = outsideMarkers(s, spans)
	}
	if len(spans) == 0 {
		return nil
	}
	sort.Slice(spans, func(i, j int) bool {
		a, b := spans[i], spans[j]
		if a.start != b.start {
			return a.start < b.start
		}
		if a.prio != b.prio {
			return a.prio < b.prio // a named rule over the generic detectors
		}
		return a.end > b.end
	})
	kept := spans[:1]
	for _, sp := range spans[1:] {
		if sp.start < kept[len(kept)-1].end {
			continue
		}
		kept = append(kept, sp)
	}
	return kept
}

// apply replaces spans in s, then every other occurrence of a secret it
// replaced, so that a password caught once as PASSWORD=x is not left bare
// further on in the same text.
func apply(s string, spans []span) (string, int) {
	var b strings.Builder
	b.Grow(len(s) + 16*len(spans))
	last := 0
	for _, sp := range spans {
		b.WriteString(s[last:sp.start])
		writeMarker(&b, sp.id)
		last = sp.end
	}
	b.WriteString(s[last:])
	out, n := b.String(), len(spans)
	// Each distinct secret once: a text full of the same value (a key
	// taken for the value of the key before it) rescanned the output at
	// every span.
	seen := make(map[string]bool, len(spans))
	for _, sp := range spans {
		for _, secret := range [...]string{s[sp.start:sp.end], sp.echo} {
			if len(secret) >= minEchoLen && !seen[secret] {
				seen[secret] = true
				examined(len(out)) // each distinct secret reads the output once
				var c int
				out, c = replaceEcho(out, secret, sp.id)
				n += c
			}
		}
	}
	return out, n
}

func lettersOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			return false
		}
	}
	return true
}

// replaceWhole replaces the occurrences of secret in s that stand whole:
// not inside a longer word, as "postgres" stands in "postgresql://".
func replaceWhole(s, secret, with string) (string, int) {
	var b strings.Builder
	n, last := 0, 0
	for from := 0; ; {
		i := strings.Index(s[from:], secret)
		if i < 0 {
			break
		}
		at, end := from+i, from+i+len(secret)
		if (at == 0 || !isWordByte(s[at-1]) && s[at-1] < 0x80) && (end == len(s) || !isWordByte(s[end]) && s[end] < 0x80) {
			b.WriteString(s[last:at])
			b.WriteString(with)
			last = end
			n++
		}
		from = at + 1
	}
	if n == 0 {
		return s, 0
	}
	b.WriteString(s[last:])
	return b.String(), n
}

// minEchoLen is the shortest secret whose other occurrences are replaced
// too: a shorter one is likely to occur by chance.
const minEchoLen = 6

// MarkerPrefix begins the marker that replaces a secret, "[redacted: <rule-id>]"
// (the id of letters, digits and hyphens, then "]"). The index leaves
// markers out: "password" finds the texts about passwords, not every
// redacted one.
const MarkerPrefix = "[redacted: "

// outsideMarkers drops the spans that start inside a marker already in s:
// text redacted once is redacted again when a title or an echo is derived
// from it, and "echo [redacted: password] | docker login --password-stdin"
// must not take the marker's first word for the password. A span that
// starts before a marker and reaches over it (a Cookie header whose other
// cookie holds a token) is kept whole. Markers are found in order and each
// span looks its up by binary search: text is untrusted and may hold many.
func outsideMarkers(s string, spans []span) []span {
	var marks [][2]int
	for from := 0; ; {
		i := strings.Index(s[from:], MarkerPrefix)
		if i < 0 {
			break
		}
		start := from + i
		end, whole := MarkerEnd(s, start)
		if whole {
			marks = append(marks, [2]int{start, end})
		}
		from = end
	}
	if len(marks) == 0 {
		return spans
	}
	kept := spans[:0]
	for _, sp := range spans {
		// the last marker starting at or before the span's start
		k := sort.Search(len(marks), func(j int) bool {
			examined(1) // a marker compared
			return marks[j][0] > sp.start
		}) - 1
		if k >= 0 && sp.start < marks[k][1] {
			continue
		}
		kept = append(kept, sp)
	}
	return kept
}

// MarkerEnd returns where the marker that starts at s[at] (with
// MarkerPrefix) ends, after its "]", and whether it is whole: a rule id
// and "]" after the prefix. When it is not, the end is the prefix's.
// Redaction skips markers already in a text, and the index leaves their
// words out.
func MarkerEnd[T string | []byte](s T, at int) (end int, whole bool) {
	i := at + len(MarkerPrefix)
	for i < len(s) && isIDByte(s[i]) {
		i++
	}
	if i < len(s) && s[i] == ']' {
		return i + 1, true
	}
	return at + len(MarkerPrefix), false
}

func isIDByte(c byte) bool { return isWordByte(c) || c == '-' }

func writeMarker(b *strings.Builder, id string) {
	b.WriteString(MarkerPrefix)
	b.WriteString(id)
	b.WriteByte(']')
}

func marker(id string) string { return MarkerPrefix + id + "]" }

// Conversation redacts every text field of c in place and returns how many
// secrets it replaced. That is free text and the structural strings a
// format fills from its input too (models, tool names, note kinds, branch
// names, attachment refs and types): they reach the API, MCP and show, and
// some are indexed, and a presigned URL in an attachment ref carries keys.
// Attachment names and artifact paths are searchable text, so they are
// redacted as well; nothing finds a payload by them. So is the project: a
// portable file may name it freely, and it is shown in every hit, listed and
// filed in the index; a project that is a folder's name or a workspace hash
// has no secret's shape and stays as it is.
//
// Ids are left alone: the conversation's ID and RelatedConversations,
// messages' ID and ParentID, tool call ids (ToolCall.ID,
// ToolResult.CallID) are keys that other records refer to, and a marker in
// one would break those references. So are Source and File, which name the
// parser and the file read.
//
// A secret found in one field is replaced in every other field too: the
// reply that repeats a pasted password, the tool output that echoes the
// one its call was given, and a title cut from the first prompt (which a
// cut inside the value, marked "…", would else keep as a placeholder).
func (r *Redactor) Conversation(c *conversation.Conversation) int {
	n := 0
	type echo struct{ secret, id string }
	var echoes []echo
	eachText(c, func(p *string) {
		spans := r.find(*p)
		if len(spans) == 0 {
			return
		}
		for _, sp := range spans {
			// A word of letters ("postgres" in a URL) is replaced in its
			// own text only: elsewhere it is likely the word.
			for _, s := range [...]string{(*p)[sp.start:sp.end], sp.echo} {
				if len(s) >= minEchoLen && (!lettersOnly(s) || len(s) >= minWordEcho) &&
					!slices.ContainsFunc(echoes, func(e echo) bool { return e.secret == s }) {
					echoes = append(echoes, echo{s, sp.id})
				}
			}
		}
		out, k := apply(*p, spans)
		*p = out
		n += k
	})
	if len(echoes) == 0 {
		return n
	}
	eachText(c, func(p *string) {
		for _, e := range echoes {
			out, k := replaceEcho(*p, e.secret, e.id)
			*p = out
			n += k
		}
	})
	for _, e := range echoes {
		// Only the title is cut from another text (the first prompt):
		// elsewhere "Logging in as admin…" is no password cut short.
		out, k := replaceCutEcho(c.Title, e.secret, e.id)
		c.Title = out
		n += k
	}
	return n
}

// replaceEcho replaces every occurrence of secret in s with id's marker: a
// word only where it stands whole ("postgres" inside "postgresql" is not
// it), mixed letters and digits anywhere (glued to a flag: mysql -pSECRET).
func replaceEcho(s, secret, id string) (string, int) {
	if !strings.Contains(s, secret) {
		return s, 0
	}
	if lettersOnly(secret) {
		return replaceWhole(s, secret, marker(id))
	}
	return strings.ReplaceAll(s, secret, marker(id)), strings.Count(s, secret)
}

// minWordEcho is the shortest secret of letters only that is replaced in
// a conversation's other fields.
const minWordEcho = 16

// minCutEcho is the shortest start of a secret that a title cut short
// ("…") ending in it is taken to hold, and at least half the secret: a
// shorter start is likely a word ("admin…" of admin1234).
const minCutEcho = 8

// replaceCutEcho replaces the start of secret that ends s, a title cut
// short within it and marked so ("DB_PASSWORD=Tr0ub4dor…"), with id's
// marker.
func replaceCutEcho(s, secret, id string) (string, int) {
	for _, ell := range []string{"…", "..."} {
		body, ok := strings.CutSuffix(s, ell)
		if !ok {
			continue
		}
		body = strings.TrimRight(body, " ")
		for k := len(secret) - 1; k >= max(minCutEcho, (len(secret)+1)/2); k-- {
			at := len(body) - k
			if at >= 0 && body[at:] == secret[:k] && (at == 0 || !isWordByte(body[at-1]) || body[at-1] >= 0x80) {
				return body[:at] + marker(id) + ell, 1
			}
		}
	}
	return s, 0
}

// eachText calls fn with every text field of c that is not an id.
func eachText(c *conversation.Conversation, fn func(*string)) {
	fn(&c.Title)
	fn(&c.Project)
	fn(&c.Model)
	for i := range c.Topics {
		fn(&c.Topics[i].Name)
	}
	for i := range c.Decisions {
		fn(&c.Decisions[i].Decision)
		fn(&c.Decisions[i].Rationale)
	}
	for i := range c.Tags {
		fn(&c.Tags[i])
	}
	for i := range c.Artifacts {
		a := &c.Artifacts[i]
		fn(&a.Type)
		fn(&a.Title)
		fn(&a.Path)
		fn(&a.Description)
		fn(&a.Content)
	}
	for i := range c.Summaries {
		fn(&c.Summaries[i])
	}
	for i := range c.Notes {
		fn(&c.Notes[i].Kind)
		fn(&c.Notes[i].Title)
		fn(&c.Notes[i].Text)
	}
	for i := range c.Messages {
		m := &c.Messages[i]
		fn(&m.Author) // searched with the content
		fn(&m.Content)
		fn(&m.Thinking)
		fn(&m.Model)
		fn(&m.Branch)
		for j := range m.ToolCalls {
			fn(&m.ToolCalls[j].Name) // indexed: a search found a message by it
			fn(&m.ToolCalls[j].Arguments)
		}
		for j := range m.ToolResults {
			fn(&m.ToolResults[j].Name)
			fn(&m.ToolResults[j].Content)
		}
		for j := range m.Attachments {
			a := &m.Attachments[j]
			fn(&a.Name)
			fn(&a.Type)
			fn(&a.Ref) // a presigned URL carries its credential
		}
	}
}

// entropy is the Shannon entropy of s in bits per byte.
func entropy(s string) float64 {
	if s == "" {
		return 0
	}
	var counts [256]int
	for i := 0; i < len(s); i++ {
		counts[s[i]]++
	}
	n := float64(len(s))
	e := 0.0
	for _, c := range counts {
		if c == 0 {
			continue
		}
		p := float64(c) / n
		e -= p * math.Log2(p)
	}
	return e
}
