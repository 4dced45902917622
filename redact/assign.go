package redact

import (
	"bytes"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Ids of the hand-written detectors' markers.
const (
	idPassword    = "password"
	idSecret      = "generic-secret"
	idURLPassword = "url-password"
)

// Priorities of the detectors: after every token rule, so that
// GITHUB_TOKEN=ghp_… is named github-pat.
const (
	prioAssign = 1000
	prioURL    = 1001
)

// keyKind is what a key name says its value is.
type keyKind int

const (
	kindNone keyKind = iota
	kindPassword
	kindSecret
	// kindKey is a key named only key or auth: its value is more often an
	// id or a name than with other secret names, so it must be longer.
	kindKey
	// kindPIN is a key named pin, pin_code or pin number: its value is a
	// secret only when it is a PIN, 4 to 12 digits (pin: 1.2.3 pins a
	// version, LED_PIN=13 is a board's pin).
	kindPIN
)

// findAssignments appends the values of secret-looking keys in s: KEY=value,
// key: value, "key": "value" (also JSON-escaped inside a JSON string),
// key := "value" and key => 'value'.
func findAssignments(s string, out []span) []span {
	// The next '=' and ':' at or after p, found with IndexByte, which is
	// much faster than IndexAny.
	eq, colon := -1, -1
	for p := 0; p < len(s); p++ {
		if eq < p && eq != len(s) {
			eq = indexFrom(s, '=', p)
		}
		if colon < p && colon != len(s) {
			colon = indexFrom(s, ':', p)
		}
		p = min(eq, colon)
		if p == len(s) {
			break
		}
		v := p + 1
		if s[p] == '=' {
			if p > 0 && strings.IndexByte("=!<>:+-*/%&|^", s[p-1]) >= 0 {
				continue // comparison or compound operator
			}
			if v < len(s) && s[v] == '=' {
				p++ // == or ===
				continue
			}
			if v < len(s) && s[v] == '>' {
				v++ // =>
			}
		} else {
			if v < len(s) && (s[v] == ':' || s[v] == '/') {
				p++ // :: or a URL's ://
				continue
			}
			if v < len(s) && s[v] == '=' {
				v++ // :=
			}
		}
		k, ke := keyBounds(s, p)
		key := s[k:ke]
		if strings.EqualFold(key, "value") || strings.EqualFold(key, "ParameterValue") {
			// {"name": "DB_PASSWORD", "value": "…"}, <add key="ApiKey" value="…"/>,
			// CloudFormation's {"ParameterKey": "DBPassword", "ParameterValue": "…"}
			key = pairName(s, k)
			if key == "" {
				if a, b, _ := assignedValueAt(s, v, 0, maxBareValue); a >= 0 {
					key = pairNameAfter(s, b) // {"value": "…", "name": "DB_PASSWORD"}
					if key == "" {
						key = objectName(s, b, 1)
					}
				}
			}
			if key == "" {
				key = objectName(s, k, -1)
			}
			if key == "" {
				key = blockName(s, k)
			}
		}
		kind := classifyKey(key)
		if kind == kindNone && strings.EqualFold(key, "passe") && k >= 7 && strings.EqualFold(s[k-7:k], "mot de ") {
			kind, key = kindPassword, "mot_de_passe" // French: mot de passe
		}
		if kind == kindNone || key == "PASS" && s[p] == ':' {
			continue // none, or a test's status: --- PASS: TestParse2
		}
		bare := bareKey(key)
		if bare && kind != kindPassword && qualified(s, k, key) {
			continue // primary key: …, the cache key: …, partition key=…
		}
		param := paramSep(s, p)
		a, b, cut := assignedValueAt(s, v, param, maxBareValue)
		if a >= 0 && b < len(s) && s[b] == ' ' && isScheme(s[a:b]) {
			a, b = valueAt(s, b) // authorization: bearer <token>
		}
		if a < 0 || b < len(s) && s[b] == '(' || isCode(s[a:b]) {
			continue // none, or a function call
		}
		id := judge(key, kind, s[a:b])
		if id == "" || kind != kindPassword && (relativePath(s[a:b]) || strings.EqualFold(key, "signingkey") && gpgKeyID(s[a:b])) {
			continue
		}
		if cut {
			// judged by its start, replaced whole: no byte of it is left
			// bare, and the scan goes on after it
			_, b, _ = assignedValueAt(s, v, param, len(s))
		}
		out = append(out, span{start: a, end: b, id: id, prio: prioAssign})
		p = b - 1
	}
	return out
}

// findEncodedAssignments appends the values of secret-looking keys whose
// = or : is URL-encoded, in a query string or a form body sent encoded
// again (data=user%3Dbob%26password%3D…) and in encoded JSON
// (%22password%22%3A%22…%22). The value is judged decoded: %24%7BVAR%7D is
// a reference, kept.
func findEncodedAssignments(s string, out []span) []span {
	for p := 0; ; {
		i := strings.IndexByte(s[p:], '%')
		if i < 0 {
			return out
		}
		p += i
		op := p
		p++
		if op+3 > len(s) || s[op+1] != '3' || s[op+2]|0x20 != 'd' && s[op+2]|0x20 != 'a' {
			continue
		}
		// the key, maybe in encoded quotes, maybe after an encoded separator
		ke := op
		if ke >= 3 && strings.EqualFold(s[ke-3:ke], "%22") {
			ke -= 3
		}
		k := ke
		for k > 0 && ke-k < 64 && isKeyByte(s[k-1]) {
			k--
		}
		if k > 0 && s[k-1] == '%' && ke-k > 2 && isHex(s[k]) && isHex(s[k+1]) {
			k += 2 // %26password, %22password
		}
		key := s[k:ke]
		kind := classifyKey(key)
		if kind == kindNone {
			continue
		}
		// the value, past encoded blanks and an encoded quote
		v := op + 3
		for v < len(s) && (s[v] == '+' || strings.HasPrefix(s[v:], "%20")) {
			if s[v] == '+' {
				v++
			} else {
				v += 3
			}
		}
		quoted := v+3 <= len(s) && strings.EqualFold(s[v:v+3], "%22")
		if quoted {
			v += 3
		}
		b := v
		for b < len(s) && b-v < 600 {
			c := s[b]
			if c == '%' {
				if b+3 > len(s) || !isHex(s[b+1]) || !isHex(s[b+2]) {
					break
				}
				if e := unhex(s[b+1])<<4 | unhex(s[b+2]); e == '"' || !quoted && strings.IndexByte("&,;} ", e) >= 0 {
					break // the closing quote, or & , ; } and a blank between parameters
				}
				b += 3
				continue
			}
			if isBlank(c) || strings.IndexByte("&\"'`<>\\", c) >= 0 || !quoted && c == '+' {
				break
			}
			b++
		}
		examined(b - v)
		if b == v {
			continue
		}
		dec, err := url.QueryUnescape(s[v:b])
		if err != nil {
			continue
		}
		if id := judge(key, kind, dec); id != "" && (kind == kindPassword || !relativePath(dec)) {
			sp := span{start: v, end: b, id: id, prio: prioAssign}
			if dec != s[v:b] {
				sp.echo = dec // the password typed or pasted decoded
			}
			out = append(out, sp)
			p = b
		}
	}
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'f'
}

// unhex is the value of the hex digit c.
func unhex(c byte) byte {
	if c <= '9' {
		return c - '0'
	}
	return (c | 0x20) - 'a' + 10
}

// findFlagPasswords appends the values of secret-named command-line flags:
// --password VALUE (--password=VALUE is an assignment), --db-password,
// --token …; and the short flags of the commands that take a password by
// one: sshpass -p VALUE, mysql -pVALUE (glued: mysql -p alone prompts),
// redis-cli -a VALUE, docker login -p VALUE or -pVALUE, openssl -k VALUE and
// openssl -pass pass:VALUE. Elsewhere -p is a port or mkdir's parents.
func findFlagPasswords(s string, out []span) []span {
	for p := 0; ; {
		i := strings.Index(s[p:], "-")
		if i < 0 {
			return out
		}
		p += i
		at := p
		p++
		if at > 0 && strings.IndexByte(" \t'\"(", s[at-1]) < 0 {
			continue
		}
		var v int
		kind := kindPassword
		switch {
		case strings.HasPrefix(s[at:], "--password-stdin"):
			// echo VALUE | docker login --password-stdin
			if a, b := echoedValue(s, at); a >= 0 && plausibleValue(s[a:b], true) {
				out = append(out, span{start: a, end: b, id: idPassword, prio: prioAssign})
			}
			continue
		case strings.HasPrefix(s[at:], "--"):
			e := at + 2
			for e < len(s) && e-at < 64 && isKeyByte(s[e]) && s[e] != '.' {
				e++
			}
			flag := s[at+2 : e]
			value := strings.EqualFold(flag, "value")
			if e >= len(s) || s[e] != ' ' && s[e] != '\t' && !(value && s[e] == '=') {
				continue
			}
			v = e
			if value {
				// aws ssm put-parameter --name /prod/db/password --value …
				// or --value=…: the --name of the same command names it.
				if s[e] == '=' {
					v++
				}
				_, b := valueAt(s, v)
				flag = flagName(s, at, max(b, v))
			}
			if kind = classifyKey(flag); kind == kindNone {
				continue
			}
		case at+2 < len(s) && strings.IndexByte("pak", s[at+1]) >= 0:
			cmd := passwordFlagCommand(s, at)
			glued := s[at+2] != ' ' && s[at+2] != '\t'
			switch {
			case cmd == "":
				continue
			case s[at+1] == 'p' && glued:
				if cmd != "mysql" && cmd != "sshpass" && cmd != "docker login" {
					continue // docker's flag parser takes -pVALUE too
				}
			case glued:
				continue
			case s[at+1] != passwordFlags[cmd]:
				continue // redis-cli -a, docker login -p, openssl -k, sshpass -p
			}
			v = at + 2
		case strings.HasPrefix(s[at:], "-pass") && passwordFlagCommand(s, at) == "openssl":
			// openssl -pass pass:VALUE, -passin, -passout
			e := at + 5
			for e < len(s) && isLetter(s[e]) {
				e++
			}
			if e >= len(s) || s[e] != ' ' {
				continue
			}
			v = e
			for v < len(s) && s[v] == ' ' {
				v++
			}
			if !strings.HasPrefix(s[v:], "pass:") {
				continue // env:VAR, file:path, fd:3, stdin
			}
			v += 5
		default:
			continue
		}
		a, b := valueAt(s, v)
		if a < 0 || s[a] == '-' || !plausibleValue(s[a:b], kind == kindPassword) || kind == kindKey && b-a < 20 {
			continue
		}
		out = append(out, span{start: a, end: b, id: kind.id(), prio: prioAssign})
		p = b
	}
}

// flagName returns the last path part of the value of the --name flag of
// the command of the flag at s[at] whose value ends at s[end], or "": the
// nearest --name before it, else the first after. The command ends at ;
// && || |, a newline (not a \ continuation) or a literal \n escape, within
// 300 bytes either way.
func flagName(s string, at, end int) string {
	from, to := commandStart(s, at, max(0, at-300)), commandEnd(s, end, min(len(s), end+300))
	cmd := s[from:to]
	examined(2 * len(cmd)) // read for its bounds, then for --name
	name := func(off int) (string, bool) {
		if off >= len(cmd) || cmd[off] != ' ' && cmd[off] != '=' && cmd[off] != '\t' {
			return "", false
		}
		a, b := valueAt(cmd, off+1)
		if a < 0 {
			return "", true
		}
		v := strings.Trim(cmd[a:b], quotes)
		return pathLeaf(v), true
	}
	for i := at - from; ; {
		j := strings.LastIndex(cmd[:i], "--name")
		if j < 0 {
			break
		}
		if v, ok := name(j + len("--name")); ok {
			return v
		}
		i = j
	}
	for off := end - from; ; {
		i := strings.Index(cmd[off:], "--name")
		if i < 0 {
			return ""
		}
		off += i + len("--name")
		if v, ok := name(off); ok {
			return v
		}
	}
}

// commandStart returns where the shell command holding s[at] starts, no
// earlier than from: after the last ; && || | newline or literal \n
// escape before at.
func commandStart(s string, at, from int) int {
	for i := at - 1; i >= from; i-- {
		if n := commandBreak(s, i); n > 0 {
			return i + n
		}
	}
	return from
}

// commandEnd returns where the shell command holding s[end-1] ends, no
// later than to.
func commandEnd(s string, end, to int) int {
	for i := end; i < to; i++ {
		if commandBreak(s, i) > 0 {
			return i
		}
	}
	return to
}

// commandBreak returns the length of the command separator at s[i]: ;
// && || |, a newline not escaped by \ (a continuation), or a literal \n
// escape not after a \ (JSON's \\\n is an escaped continuation); or 0.
func commandBreak(s string, i int) int {
	switch s[i] {
	case ';', '|':
		return 1
	case '&':
		if i+1 < len(s) && s[i+1] == '&' {
			return 2
		}
		if i > 0 && s[i-1] == '&' {
			return 1
		}
	case '\n':
		j := i
		if j > 0 && s[j-1] == '\r' {
			j--
		}
		if j == 0 || s[j-1] != '\\' {
			return 1
		}
	case '\\':
		if i+1 < len(s) && s[i+1] == 'n' && (i == 0 || s[i-1] != '\\') {
			return 2
		}
	}
	return 0
}

// passwordFlagCommand returns the command of the line before s[at] whose
// -p is a password, or "".
func passwordFlagCommand(s string, at int) string {
	from := max(0, at-200) // a command is near its flags; lines can be long
	line := s[from+strings.LastIndexByte(s[from:at], '\n')+1 : at]
	// the last command of the line: after && || ; or |
	if i := strings.LastIndexAny(line, ";|&"); i >= 0 {
		line = line[i+1:]
	}
	cmd := ""
	for f := range strings.FieldsSeq(line) { // no slice: this runs at every -p, -a and -k
		f = f[strings.LastIndexByte(f, '/')+1:]
		switch f {
		case "mysql", "mysqldump", "mysqladmin", "mariadb", "mariadb-dump":
			return "mysql"
		case "sshpass", "redis-cli", "openssl":
			return f
		case "docker", "podman", "buildah", "skopeo", "nerdctl":
			cmd = "docker"
		case "login":
			if cmd == "docker" {
				return "docker login"
			}
		}
	}
	return ""
}

// echoedValue returns the bounds of the word that echo or printf pipes
// into the command whose flag is at s[at] (echo "$X" | docker login
// --password-stdin), or -1.
func echoedValue(s string, at int) (int, int) {
	from := max(0, at-300)
	ls := from + strings.LastIndexByte(s[from:at], '\n') + 1
	pipe := strings.LastIndexByte(s[ls:at], '|')
	if pipe < 0 {
		return -1, -1
	}
	left := s[ls : ls+pipe]
	start := ls + strings.LastIndexAny(left, ";&(") + 1
	f := strings.Fields(s[start : ls+pipe])
	if len(f) < 2 || f[0] != "echo" && f[0] != "printf" || f[0] == "printf" && len(f) < 3 && strings.Contains(f[1], "%") {
		return -1, -1
	}
	b := ls + pipe
	for b > start && isBlank(s[b-1]) {
		b--
	}
	a := b - len(f[len(f)-1])
	if a < b && strings.IndexByte("\"'", s[a]) >= 0 && s[b-1] == s[a] && b-a >= 2 {
		a, b = a+1, b-1
	}
	if a >= b || strings.ContainsAny(s[a:b], "\"' ") {
		return -1, -1
	}
	return a, b
}

// passwordFlags: the flag, after a blank, that gives each command of
// passwordFlagCommand its password.
var passwordFlags = map[string]byte{"sshpass": 'p', "redis-cli": 'a', "docker login": 'p', "openssl": 'k'}

// keyBefore returns the key name ending just before the operator at p,
// past spaces and a closing quote (maybe JSON-escaped).
func keyBefore(s string, p int) string {
	k, end := keyBounds(s, p)
	return s[k:end]
}

// keyBounds returns where the key name that keyBefore returns starts and
// ends.
func keyBounds(s string, p int) (int, int) {
	k := p
	// not skipBack, which is not inlined: this runs at every = and :
	for n := 0; k > 0 && n < 4 && (s[k-1] == ' ' || s[k-1] == '\t'); n++ {
		k--
	}
	if k > 0 && (s[k-1] == '"' || s[k-1] == '\'' || s[k-1] == '`') {
		k--
		if k > 0 && s[k-1] == '\\' {
			k--
		}
	}
	end := k
	for k > 0 && end-k < 64 {
		if isKeyByte(s[k-1]) {
			k--
			continue
		}
		if s[k-1] < 0x80 {
			break
		}
		// a letter of another script: contraseña, hasło, пароль
		r, n := utf8.DecodeLastRuneInString(s[:k])
		if !unicode.IsLetter(r) {
			break
		}
		k -= n
	}
	if end-k >= 64 {
		return end, end
	}
	return k, end
}

// pairName returns the name of a name and value pair whose "value" key
// starts at s[k]: DB_PASSWORD in {"name":"DB_PASSWORD","value":…} (ECS task
// definitions, kubectl -o json, GitHub's API), in the Kubernetes and
// compose env list "- name: DB_PASSWORD" over "value: …", and in .NET's
// <add key="DbPassword" value="…"/>. "" when there is none.
func pairName(s string, k int) string {
	i := k
	if i > 0 && strings.IndexByte("\"'", s[i-1]) >= 0 {
		i--
		if i > 0 && s[i-1] == '\\' {
			i--
		}
	}
	// back over the separator: a comma, blanks, one line break
	lines := 0
	for n := 0; i > 0 && n < 40; n++ {
		c := s[i-1]
		if c == '\n' {
			if lines++; lines > 1 {
				return ""
			}
		} else if c != ' ' && c != '\t' && c != ',' && c != '\r' {
			break
		}
		i--
	}
	// the name's value, maybe quoted
	e := skipBack(s, i, 2, quotes)
	quoted := e < i
	i = e
	for i > 0 && e-i < 64 && isKeyByte(s[i-1]) {
		i--
	}
	name := s[i:e]
	if name == "" {
		return ""
	}
	if quoted {
		i = skipBack(s, i, len(s), quotes)
	}
	// the operator and the key of the name
	i = skipBack(s, i, 4, " \t")
	if i == 0 || s[i-1] != ':' && s[i-1] != '=' {
		return ""
	}
	if !nameKey(keyBefore(s, i-1)) {
		return ""
	}
	return name
}

// pathLeaf is the last part of a path ("/prod/db/password": password),
// which names a parameter.
func pathLeaf(v string) string { return v[strings.LastIndexByte(v, '/')+1:] }

// nameKey reports a key whose value names the value beside it: name, key,
// and CloudFormation's ParameterKey.
func nameKey(k string) bool {
	return strings.EqualFold(k, "name") || strings.EqualFold(k, "key") || strings.EqualFold(k, "ParameterKey")
}

// quotes are the bytes around a quoted name or value, maybe JSON-escaped.
const quotes = "\"'\\"

// skip returns where s stops holding bytes of set from i on, after at
// most n of them.
func skip(s string, i, n int, set string) int {
	for end := min(len(s), i+n); i < end && strings.IndexByte(set, s[i]) >= 0; {
		i++
	}
	return i
}

// skipBack returns where s starts holding bytes of set that end at i,
// at most n of them.
func skipBack(s string, i, n int, set string) int {
	for end := max(0, i-n); i > end && strings.IndexByte(set, s[i-1]) >= 0; {
		i--
	}
	return i
}

// objectName returns the name of a name and value pair whose name is a few
// keys away from its value, in the same JSON object: AWS SSM's {"Name":
// "/prod/db/password", "Type": "SecureString", "Value": "…"}, and {"Key":
// "DB_PASSWORD", …, "Value": "…"}. It looks from s[i] backwards (dir -1)
// to the object's { or forwards (dir 1) to its }, 400 bytes at most,
// past nested objects and lists; the nearest name or key wins, and of a
// path only its last part is the name. "" when there is none, or the
// object's bracket is not found.
func objectName(s string, i, dir int) string {
	open, close := byte('{'), byte('}')
	if dir > 0 {
		open, close = close, open
	}
	// Start past the quotes of the key or value it starts at, outside any
	// string; they tell how the object quotes its strings: "…", '…' (a
	// Python dict printed) or \"…\" (JSON inside a JSON string).
	var q string
	if dir < 0 {
		j := skipBack(s, i, 3, quotes)
		q, i = s[j:i], j
	} else {
		j := skip(s, i, 3, quotes)
		q, i = s[i:j], j
	}
	delim, slashes := byte('"'), 0
	switch {
	case strings.Contains(q, "'"):
		delim = '\''
	case strings.Contains(q, `\"`):
		slashes = 1
	}
	depth := 0
	name := ""
	inString := false
	n := 0
	defer func() { examined(n) }()
	for ; n < 400; n++ {
		if dir < 0 {
			i--
		}
		if i < 0 || i >= len(s) {
			return ""
		}
		c := s[i]
		// A bracket inside a string ("Description": "a } b") is text: the
		// object's quote, escaped as its strings are, opens or closes one.
		toggle := c == delim && backslashes(s, i) == slashes
		if toggle {
			inString = !inString
		}
		switch {
		case inString || toggle:
		case c == close || c == ']' && dir < 0 || c == '[' && dir > 0:
			depth++
		case c == open || c == '[' && dir < 0 || c == ']' && dir > 0:
			if depth == 0 {
				if c != open {
					return "" // a list holds the value
				}
				return name
			}
			depth--
		case depth == 0 && name == "" && (c == ':' || c == '='):
			if nameKey(keyBefore(s, i)) {
				if a, b := valueAt(s, i+1); a >= 0 {
					v := s[a:b]
					name = pathLeaf(v)
				}
			}
		}
		if dir > 0 {
			i++
		}
	}
	return ""
}

// blockName returns the name of a name and value pair written as lines of
// one block, YAML's or the AWS CLI's --output yaml: "Name: /prod/db/password"
// up to 8 lines above or below "Value: …" (the key at s[k]), at the same
// indentation, with no blank or less indented line between. Of a path only
// its last part is the name. "" when there is none.
func blockName(s string, k int) string {
	from := max(0, k-64) // indentation is short; a long line is not read back
	nl := strings.LastIndexByte(s[from:k], '\n')
	examined(k - from)
	if nl < 0 && from > 0 {
		return ""
	}
	ls := from + nl + 1
	lead := s[ls:k]
	if strings.Trim(lead, " \t-") != "" {
		return "" // the key does not open its line
	}
	width := len(lead)
	for _, dir := range []int{-1, 1} {
		start := ls
		for range 8 {
			var line string
			if dir < 0 {
				if start == 0 {
					break
				}
				prev := strings.LastIndexByte(s[:start-1], '\n') + 1
				line, start = s[prev:start-1], prev
			} else {
				end := strings.IndexByte(s[start:], '\n')
				if end < 0 {
					break
				}
				start += end + 1
				next := strings.IndexByte(s[start:], '\n')
				if next < 0 {
					next = len(s) - start
				}
				line = s[start : start+next]
			}
			examined(len(line))
			line = strings.TrimRight(line, "\r")
			body := strings.TrimLeft(line, " \t-")
			if body == "" || len(line)-len(body) != width {
				break // a blank line or another block
			}
			key, v, ok := strings.Cut(body, ":")
			if !ok || !nameKey(strings.Trim(key, quotes)) {
				continue
			}
			v = strings.Trim(strings.TrimSpace(v), quotes+",")
			return pathLeaf(v)
		}
	}
	return ""
}

// backslashes returns how many backslashes stand right before s[i].
func backslashes(s string, i int) int {
	n := 0
	for j := i - 1; j >= 0 && s[j] == '\\'; j-- {
		n++
	}
	return n
}

// pairNameAfter returns the name of a name and value pair whose value ends
// at s[b] and whose name follows it, in the same object: {"value": "…",
// "name": "DB_PASSWORD"}. "" when there is none.
func pairNameAfter(s string, b int) string {
	i := skip(s, b, 3, quotes)
	i = skip(s, i, 8, " \t")
	if i >= len(s) || s[i] != ',' {
		return ""
	}
	i = skip(s, i+1, 40, " \t\n\r")
	i = skip(s, i, 2, quotes)
	e := i
	for e < len(s) && e-i < 12 && isLetter(s[e]) {
		e++
	}
	if !nameKey(s[i:e]) {
		return ""
	}
	i = skip(s, e, 6, quotes+" \t")
	if i >= len(s) || s[i] != ':' && s[i] != '=' {
		return ""
	}
	i = skip(s, i+1, 6, quotes+" \t")
	e = i
	for e < len(s) && e-i < 64 && isKeyByte(s[e]) {
		e++
	}
	return s[i:e]
}

// keyQualifiers are words that, before the bare word key, say what kind of
// key it is when that is no secret: "the cache key: user_id plus locale".
// Words that name a secret's key (session, storage, JSON, S3) are not here.
var keyQualifiers = map[string]bool{
	"primary": true, "foreign": true, "sort": true, "partition": true, "idempotency": true, "cache": true,
	"composite": true, "unique": true, "compound": true, "surrogate": true, "natural": true, "candidate": true,
	"shard": true, "sharding": true, "routing": true, "row": true, "range": true, "hash": true, "lookup": true,
	"map": true, "dict": true, "dictionary": true, "object": true, "redis": true, "translation": true,
	"i18n": true, "l10n": true, "locale": true, "dedup": true, "dedupe": true, "deduplication": true, "index": true,
	"search": true, "join": true, "group": true, "grouping": true, "lock": true, "config": true, "setting": true,
	"registry": true, "column": true, "field": true, "table": true, "entity": true, "record": true, "react": true,
	"list": true, "message": true, "event": true, "metric": true, "label": true, "tag": true, "header": true,
	"query": true, "hot": true, "shortcut": true, "keyboard": true, "dict's": true, "map's": true,
}

// tokenQualifiers are words that, before the bare word token, secret or
// auth, say it is no credential: "the next page token: …", "lexer token: …".
var tokenQualifiers = map[string]bool{
	"cursor": true, "pagination": true, "continuation": true, "lexer": true, "parser": true, "syntax": true,
	"cancellation": true, "design": true,
}

// qualified reports whether the bare key starting at s[k] follows a word,
// after a blank, that makes it no secret's name (primary key, cache key).
func qualified(s string, k int, key string) bool {
	i := k
	if i > 0 && strings.IndexByte("\"'`", s[i-1]) >= 0 {
		return false // a quoted key: "key": …
	}
	if i == 0 || s[i-1] != ' ' && s[i-1] != '\t' {
		return false
	}
	i--
	e := i
	for i > 0 && e-i < 32 && (isLetter(s[i-1]) || s[i-1] >= '0' && s[i-1] <= '9' || s[i-1] == '-' || s[i-1] == '\'') {
		i--
	}
	w := strings.ToLower(s[i:e])
	if excludeAny[w] {
		return true
	}
	if strings.EqualFold(key, "key") || strings.EqualFold(key, "keys") {
		return keyQualifiers[w]
	}
	return tokenQualifiers[w]
}

// relativePath reports whether v is a path of words (node_modules/.cache/
// babel-loader/4f8c2a): it holds a / and a part that is lower-case words
// joined by - _ or ., which base64 never holds.
func relativePath(v string) bool {
	if strings.IndexByte(v, '/') < 0 {
		return false
	}
	for _, part := range strings.Split(v, "/") {
		sep, letters, ok := false, 0, part != ""
		for i := 0; i < len(part) && ok; i++ {
			c := part[i]
			switch {
			case c >= 'a' && c <= 'z':
				letters++
			case c == '-' || c == '_' || c == '.':
				sep = true
			case c >= '0' && c <= '9':
			default:
				ok = false
			}
		}
		if ok && sep && letters >= 4 {
			return true
		}
	}
	return false
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// Key names: a key is split into lower-case parts at _ . - and camelCase
// humps (OPENAI_API_KEY → openai api key, clientSecret → client secret).
var (
	// passwordParts: a part that names a password, in English or in
	// another language (German, Dutch, Spanish, Portuguese, Polish, Swedish,
	// Russian; with and without their accents).
	passwordParts = map[string]bool{"password": true, "passwd": true, "pwd": true, "pass": true, "passphrase": true, "pw": true, "passcode": true,
		"passwort": true, "kennwort": true, "wachtwoord": true, "contraseña": true, "contrasena": true, "senha": true,
		"hasło": true, "haslo": true, "lösenord": true, "losenord": true, "пароль": true}
	// secretWords: the parts joined contain one of these.
	secretWords = [][]byte{[]byte("secret"), []byte("token"), []byte("apikey"), []byte("accesskey"), []byte("privatekey"),
		[]byte("credential"), []byte("creds"), []byte("signingkey"), []byte("encryptionkey"), []byte("masterkey"), []byte("sessionkey")}
	passwordWords = [][]byte{[]byte("password"), []byte("passwd"), []byte("passphrase"), []byte("passwort"), []byte("motdepasse")}
	// lastKeyParts: as the last part, these name a secret (STRIPE_KEY, X-Auth).
	lastKeyParts = map[string]bool{"key": true, "auth": true, "authorization": true}
	// excludeLast: as the last part, these name something about a secret,
	// not the secret (token_type, api_key_id, password_file, …).
	excludeLast = map[string]bool{
		"id": true, "ids": true, "name": true, "names": true, "file": true, "files": true, "path": true, "paths": true,
		"dir": true, "stdin": true, "url": true, "uri": true, "urls": true, "endpoint": true, "host": true, "length": true, "len": true,
		"size": true, "type": true, "types": true, "count": true, "limit": true, "env": true, "var": true, "field": true,
		"header": true, "prefix": true, "suffix": true, "format": true, "mode": true, "policy": true, "ttl": true,
		"expiry": true, "expires": true, "expiration": true, "in": true, "at": true, "version": true, "enabled": true,
		"required": true, "provider": true, "scope": true, "scopes": true, "kind": true, "label": true, "ref": true,
		"source": true, "method": true, "hint": true, "pattern": true, "regex": true, "template": true, "param": true,
		"index": true, "timeout": true, "status": true, "error": true, "message": true, "text": true,
		"placeholder": true, "description": true, "help": true, "title": true, "store": true, "storage": true,
		"manager": true, "service": true, "handler": true, "class": true, "schema": true, "strategy": true,
		"algorithm": true, "alg": true, "encoding": true, "cache": true, "budget": true, "usage": true,
		"valid": true, "validation": true, "fingerprint": true, "hash": true, "digest": true,
		"options": true, "option": true, "opts": true, "config": true, "settings": true,
	}
	// excludeAny: anywhere in the key, these say it is not a credential
	// (public_key, max_tokens, csrf_token, sort_key, keyboard, …).
	excludeAny = map[string]bool{
		"public": true, "publishable": true, "pub": true, "max": true, "min": true, "num": true, "total": true,
		"input": true, "output": true, "tokens": true, "csrf": true, "xsrf": true, "page": true, "next": true,
		"cached": true, "primary": true, "foreign": true, "sort": true, "partition": true, "idempotency": true,
		"keyboard": true, "tokenizer": true, "prompt": true, "completion": true, "reasoning": true, "keys": true,
		"secrets": true, "hotkey": true, "keymap": true, "keyword": true, "keywords": true, "has": true, "is": true,
		"show": true, "mask": true, "masked": true, "redact": true, "redacted": true, "rotate": true,
		"forgot": true, "reset": true, "strength": true, "author": true, "oauth2": true, "verifier": true, "verify": true,
	}
)

// classifyKey says whether key names a password, another secret, or neither.
func classifyKey(key string) keyKind {
	if len(key) < 2 {
		return kindNone
	}
	for i := 0; i < len(key); i++ {
		if key[i] >= 0x80 {
			key = strings.ToLower(key) // Пароль, Contraseña
			break
		}
	}
	if len(key) > 64 {
		return kindNone // lower case may be longer
	}
	var low, joined [64]byte
	var parts [16][2]int
	np, nj := 0, 0
	start := 0
	cut := func(i int) {
		if i > start && np < len(parts) {
			parts[np] = [2]int{start, i}
			np++
		}
	}
	for i := 0; i < len(key); i++ {
		c := key[i]
		switch {
		case c == '_' || c == '-' || c == '.':
			cut(i)
			start = i + 1
			low[i] = c
			continue
		case c >= 'A' && c <= 'Z':
			if i > 0 && (key[i-1] >= 'a' && key[i-1] <= 'z' || key[i-1] >= '0' && key[i-1] <= '9') {
				cut(i)
				start = i
			}
			c += 'a' - 'A'
		}
		low[i] = c
		joined[nj] = c
		nj++
	}
	cut(len(key))
	if np == 0 {
		return kindNone
	}
	part := func(i int) []byte { return low[parts[i][0]:parts[i][1]] }
	if excludeLast[string(part(np-1))] {
		return kindNone
	}
	password := false
	for i := 0; i < np; i++ {
		p := part(i)
		if excludeAny[string(p)] {
			return kindNone
		}
		if passwordParts[string(p)] {
			password = true
		}
	}
	j := joined[:nj]
	for _, w := range passwordWords {
		password = password || bytes.Contains(j, w)
	}
	if password {
		return kindPassword
	}
	if last := string(part(np - 1)); last == "pin" || last == "pincode" ||
		np >= 2 && string(part(np-2)) == "pin" && (last == "code" || last == "number") {
		return kindPIN // PIN, SIM_PIN, pin_code, pinNumber
	}
	for _, w := range secretWords {
		if bytes.Contains(j, w) {
			return kindSecret
		}
	}
	if lastKeyParts[string(part(np-1))] {
		for i := 0; i < np-1; i++ {
			if p := string(part(i)); p == "gpg" || p == "pgp" || p == "gnupg" {
				return kindNone // GPG_KEY: the id or fingerprint of a public key
			}
		}
		return kindKey
	}
	return kindNone
}

// gpgKeyID reports whether v is the id or fingerprint of an OpenPGP key,
// as git's user.signingkey holds: 8, 16 or 40 upper-case hex digits.
func gpgKeyID(v string) bool {
	v = strings.TrimPrefix(v, "0x")
	if len(v) != 8 && len(v) != 16 && len(v) != 40 {
		return false
	}
	for i := 0; i < len(v); i++ {
		if c := v[i]; !(c >= '0' && c <= '9' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// valueAt returns the bounds of the value starting at v (past blanks): the
// inside of a quoted string, or a bare word. a is -1 when there is none.
func valueAt(s string, v int) (a, b int) {
	v = skip(s, v, 6, " \t")
	if v >= len(s) {
		return -1, -1
	}
	var closeQ string
	switch {
	case s[v] == '\\' && v+1 < len(s) && (s[v+1] == '"' || s[v+1] == '\''):
		closeQ = s[v : v+2]
		v += 2
	case s[v] == '"' || s[v] == '\'' || s[v] == '`':
		closeQ = s[v : v+1]
		v++
	}
	if closeQ != "" {
		if v < len(s) && strings.IndexByte(" +),;", s[v]) >= 0 {
			// the quote closed a string the key was in: "PWD="+dir
			return -1, -1
		}
		rest := s[v:min(len(s), v+300)]
		examined(len(rest))
		if e := closingQuote(rest, closeQ); e >= 0 && strings.IndexByte(rest[:e], '\n') < 0 {
			return v, v + e
		}
	}
	b = v
	for b < len(s) && !isValueEnd(s[b]) {
		b++
	}
	examined(b - v)
	for b > v && (s[b-1] == '.' || s[b-1] == ',' || s[b-1] == ':') {
		b-- // end of a sentence
	}
	if b == v {
		return -1, -1
	}
	return v, b
}

// closingQuote returns where in rest the quote q closes the string it
// opened: the first q not escaped by a backslash ("Kp7\"Wm3" is one
// string), or -1. An escaped quote (\") closes at the next \".
func closingQuote(rest, q string) int {
	for from := 0; ; {
		e := strings.Index(rest[from:], q)
		if e < 0 {
			return -1
		}
		e += from
		if len(q) > 1 || backslashes(rest, e)%2 == 0 {
			return e // no backslash before it, or escaped ones ("a\\\\")
		}
		from = e + 1
	}
}

// assignedValueAt is valueAt for the value of KEY=value: a bare value
// runs to a blank or a quote, so that a generated password keeps its
// symbols (Kp7&Wm3Zr9Qx2, Yt4;Hn8Lc2Vb6, Xk9mPq(2zLw77), Xk9\mPq2z). Within
// it, & ; , and | end it only where they separate: before a blank, the
// end, the same byte again (&&, ||) or another key=, and & and ; always
// when param says the key itself follows one (?a=b&password=…, Server=db;Pwd=…).
// A closing bracket with no opening one in the value ends it when it closes
// one opened before the key and no letter or digit follows ((PWD=Xk9mPq2z),
// connect(password=Xk9mPq2z)); else it is the value's (ab)cd3fgh!),
// and so do </ (a closing tag) and an escape of JSON text (\n, \").
//
// A bare value is read up to limit bytes: cut reports that it goes on.
// findAssignments reads maxBareValue bytes at every key, so that a text
// of keys with no blank (password=a)password=a)…) is read once, not to
// its end at every key; a longer value is judged by its start.
func assignedValueAt(s string, v int, param byte, limit int) (a, b int, cut bool) {
	v = skip(s, v, 6, " \t")
	if v >= len(s) || strings.IndexByte("\"'`\\", s[v]) >= 0 {
		a, b = valueAt(s, v) // none, or quoted
		return a, b, false
	}
	if strings.IndexByte(",;&|", s[v]) >= 0 {
		return -1, -1, false // a separator: the key's value is empty
	}
	a = v
	var depth [3]int // ( [ {
	for b = a; b < len(s); b++ {
		if b-a == limit {
			cut = true
			break
		}
		c := s[b]
		if c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '"' || c == '\'' || c == '`' {
			break
		}
		next := byte(0)
		if b+1 < len(s) {
			next = s[b+1]
		}
		if c == '&' || c == ';' || c == ',' || c == '|' {
			if b+1 == len(s) || isBlank(next) || next == c || next == '"' || next == '\'' || next == '\\' ||
				(c == '&' || c == ';') && param == c || startsKey(s[b+1:]) {
				break
			}
			continue
		}
		if i := strings.IndexByte("([{", c); i >= 0 {
			depth[i]++
			continue
		}
		if i := strings.IndexByte(")]}", c); i >= 0 {
			if depth[i] == 0 && !isWordByte(next) && opened(s, a, "([{"[i], c) {
				break // (PWD=Xk9mPq2zLw77), connect(password=…)
			}
			if depth[i] == 0 {
				continue // a lone bracket inside the value: ab)cd3fgh!
			}
			depth[i]--
			continue
		}
		if c == '<' && next == '/' {
			break
		}
		if c == '\\' && (b+1 == len(s) || strings.IndexByte("nrtu\"'\\/", next) >= 0) {
			break
		}
	}
	examined(b - a)
	for !cut && b > a && (s[b-1] == '.' || s[b-1] == ',' || s[b-1] == ':') {
		b-- // end of a sentence
	}
	if i := strings.IndexAny(s[a:b], ",;&|"); i > 0 && codeHead(s[a:a+i]) {
		b, cut = a+i, false // code before a statement's end: this._password=s._password;break
	}
	if b == a {
		return -1, -1, false
	}
	return a, b, cut
}

// maxBareValue is the most bytes of a bare value that findAssignments
// reads to judge it: a password or a key is shorter.
const maxBareValue = 300

// opened reports whether a bracket open is left open before s[a], within
// the 256 bytes before it: the assignment whose value starts at s[a] sits
// inside it, and close ends the value there.
func opened(s string, a int, open, close byte) bool {
	n := 0
	for i := a - 1; i >= 0 && a-i <= 256; i-- {
		switch s[i] {
		case close:
			n++
		case open:
			if n == 0 {
				return true
			}
			n--
		}
	}
	return false
}

// codeHead reports whether v, a value's start before a separator, is a
// name of code: a dotted name (s._password, self.password) or a call.
func codeHead(v string) bool {
	return dottedIdent(v) || isCode(v)
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// startsKey reports whether s starts with a parameter's key and its =
// (user=, db_name=): the byte before it separated two parameters.
func startsKey(s string) bool {
	i := 0
	for i < len(s) && i < 64 && (isLetter(s[i]) || s[i] == '_' || s[i] == '-' || s[i] == '.' || i > 0 && s[i] >= '0' && s[i] <= '9') {
		i++
	}
	return i > 0 && i < len(s) && (s[i] == '=' || s[i] == ':' && i+1 < len(s) && s[i+1] == ' ')
}

// paramSep returns '&' or ';' when the key before the operator at p
// follows one, or a '?': it is a parameter of a query string or a
// connection string, whose values that byte ends. Else 0.
func paramSep(s string, p int) byte {
	k := p
	for k > 0 && p-k < 64 && isKeyByte(s[k-1]) {
		k--
	}
	if k == 0 {
		return 0
	}
	switch s[k-1] {
	case '?', '&':
		return '&'
	case ';':
		return ';'
	}
	return 0
}

// isCode reports whether the value v is code: a name that calls a
// function or indexes (getpass(), os.getenv(…), args[3], map[string]bool{,
// Bug4Secret{1}), or a (group). The name is words: lower case only, or
// with a run of three lower-case letters (keyMaterial); a random string
// before the bracket (Xk9mPq(2zLw77)) is a password.
func isCode(v string) bool {
	i := strings.IndexAny(v, "([{")
	if i == 0 && v[0] == '(' {
		// (a + b), or an expression cut at its first blank:
		// (self.password.encode(…, (GnomeKeyringData *)…
		rest := strings.TrimLeft(v[1:], "(")
		return strings.IndexByte(v, ')') >= 0 || rest == "" || codeName(rest)
	}
	if i < 0 {
		return false
	}
	name := v[:i]
	if macroName(name) {
		return true // PNG_PASS_ROWS(height,
	}
	allLower, run, longest := true, 0, 0
	for j := 0; j < len(name); j++ {
		c := name[j]
		switch {
		case c >= 'a' && c <= 'z':
			run++
			longest = max(longest, run)
			continue
		case c == '_' || c == '.':
		case c >= 'A' && c <= 'Z' || c >= '0' && c <= '9':
			allLower = false
		default:
			return false
		}
		run = 0
	}
	return allLower || longest >= 3
}

// codeName reports whether v starts with a name of code followed by a dot
// or a call (self.password…, os.getenv(…), GnomeKeyringData followed by
// nothing): a word of letters, then ".", "(" or the end.
func codeName(v string) bool {
	j := 0
	for j < len(v) && (isLetter(v[j]) || v[j] == '_' || j > 0 && v[j] >= '0' && v[j] <= '9') {
		j++
	}
	if j < 2 {
		return false
	}
	if j == len(v) {
		return !strings.ContainsAny(v, "0123456789") // letters and _ alone
	}
	return v[j] == '.' || v[j] == '('
}

// macroName reports whether name is a C macro's or a constant's:
// SCREAMING_CASE of two words or more (PNG_PASS_ROWS).
func macroName(name string) bool {
	if strings.IndexByte(name, '_') <= 0 || strings.HasSuffix(name, "_") {
		return false
	}
	for j := 0; j < len(name); j++ {
		if c := name[j]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func isValueEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '"', '\'', '`', ',', ';', '(', ')', '[', ']', '{', '}', '<', '>', '&', '\\', '|':
		return true
	}
	return false
}

// placeholderMarks are parts of a value that make it a template, a
// variable or an elision rather than a secret (${DB_PASS}, {{ .Token }},
// %s, abc...xyz). Matched anywhere. Masks (sk-xxxx, ****) and holes
// (<your-password>) are found by masked and angleHole.
var placeholderMarks = []string{"{{", "${", "$(", "...", "…", "%s", "%d", "%v", "%("}

// Words that stand for a secret without being one. They are matched as
// whole words of a value, split at punctuation, digits and camelCase humps,
// never inside a longer word: "here" is no word of Sphere#2024, nor
// "secret" of MySecret2024!, nor "token" of tokenize99X. A value is a
// placeholder when every word of it is one of these (see isPlaceholder).
var (
	// placeholderWords say a value is a placeholder even followed by a
	// number: changeme123, your-key-here-1, example_token_2.
	placeholderWords = []string{
		"your", "yours", "yourpass", "yourpassword", "yourtoken", "yourkey", "yoursecret", "example", "examples",
		"placeholder", "redacted", "dummy", "sample", "replace", "replaceme", "insert", "here", "todo", "fixme",
		"changeme", "changeit", "foobar",
	}
	// placeholderWeakWords are placeholders alone or beside the words
	// above (your-secret-here, none), but a number added to them may make a
	// real password: secret123, Token2024 and qwerty123 are redacted.
	placeholderWeakWords = []string{
		"secret", "password", "token", "none", "null", "nil", "undefined", "empty",
		"me", "my", "the", "a", "an", "to", "goes", "put", "change", "api", "apikey", "access", "key", "pass", "pwd",
		"passwd", "passphrase", "letmein", "qwerty",
	}
	// placeholderValues are placeholders as the whole value only.
	placeholderValues = []string{"hunter2"}
	// placeholderSuffixes end published example keys, in capitals:
	// AWS documentation's AKIAIOSFODNN7EXAMPLE and …bPxRfiCYEXAMPLEKEY.
	placeholderSuffixes = []string{"EXAMPLE", "EXAMPLEKEY"}
)

// isPlaceholder reports whether v stands for a secret without being one:
// it holds a mark of placeholderMarks, is a value of placeholderValues,
// ends with a suffix of placeholderSuffixes, or it is words of placeholderWords
// and placeholderWeakWords only, joined by - _ . or spaces, and maybe
// ended by a number when one of its words (or all of them run together:
// change_me_1) is of placeholderWords.
func isPlaceholder(v string) bool {
	for _, m := range placeholderMarks {
		if strings.Contains(v, m) {
			return true
		}
	}
	if masked(v) || angleHole(v) {
		return true
	}
	for _, w := range placeholderValues {
		if strings.EqualFold(v, w) {
			return true
		}
	}
	for _, w := range placeholderSuffixes {
		if strings.HasSuffix(v, w) {
			return true
		}
	}
	var joined [32]byte
	nj := 0
	words, strong, number := 0, false, false
	for i := 0; i < len(v); {
		c := v[i]
		switch {
		case isLetter(c):
			j := wordEnd(v, i)
			w := v[i:j]
			switch {
			case number:
				return false // a word after the number: your2key
			case inFold(placeholderWords, w):
				strong = true
			case !inFold(placeholderWeakWords, w):
				return false
			}
			for k := 0; k < len(w) && nj < len(joined); k++ {
				joined[nj] = lowerByte(w[k])
				nj++
			}
			words++
			i = j
		case c >= '0' && c <= '9':
			if number {
				return false // digits, then a separator, then digits
			}
			for i < len(v) && v[i] >= '0' && v[i] <= '9' {
				i++
			}
			number = true
		case c == '-' || c == '_' || c == '.' || c == ' ':
			if number && i+1 < len(v) {
				return false // more after the number
			}
			i++
		default:
			return false // other punctuation: Sample#2024
		}
	}
	if words == 0 {
		return false
	}
	return !number || strong || inFold(placeholderWords, string(joined[:nj]))
}

// identWords are words that name a secret: a value of a secret-named key
// that is an identifier with one of them for a word (_bm25_stats_key,
// ns_tsig_key1, myApiToken) is a name, not a value.
var identWords = []string{"key", "keys", "token", "tokens", "secret", "secrets", "pass", "password", "passwd", "pwd", "auth", "apikey", "credential", "credentials", "creds"}

// prose reports whether v reads as words: spaces between at least two words
// of three lower-case letters or more. Hex groups ("2B7E1516 28AED2A6") are
// no prose.
func prose(v string) bool {
	if strings.Count(v, " ") < 2 {
		return false
	}
	words := 0
	for f := range strings.FieldsSeq(v) {
		f = strings.TrimRight(f, ".,;:!?")
		lowerWord := len(f) >= 3
		for i := 0; i < len(f) && lowerWord; i++ {
			lowerWord = f[i] >= 'a' && f[i] <= 'z'
		}
		if lowerWord {
			words++
		}
	}
	return words >= 2
}

// isSecretName reports whether v, made of letters, digits, _ - and . only,
// is an identifier with a word of identWords. Words are split at - _ . and
// digits and where the case rises (testRSA2048PrivateKey: test, RSA,
// Private, Key). A random key that holds "Key" or "Auth" by chance
// (Q7xAuthZ9mKeyP3vL2) splits into one-letter words around it; a name has
// at most one (aKey).
func isSecretName(v string) bool {
	found, single := false, 0
	for i := 0; i < len(v); {
		if !isLetter(v[i]) {
			i++
			continue
		}
		j := wordEnd(v, i)
		if j-i == 1 {
			single++
		}
		found = found || inFold(identWords, v[i:j])
		i = j
	}
	return found && single <= 1
}

// wordEnd returns where the word of letters that starts at v[i] ends: at
// the first byte that is no letter, or where the case rises (camelCase:
// my|Api|Token). isPlaceholder and isSecretName split values
// into words so.
func wordEnd(v string, i int) int {
	j := i + 1
	for j < len(v) && isLetter(v[j]) && !(isUpper(v[j]) && !isUpper(v[j-1])) {
		j++
	}
	return j
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

func lowerByte(c byte) byte {
	if isUpper(c) {
		c += 'a' - 'A'
	}
	return c
}

// inFold reports whether w is one of the lower-case words, in any case.
func inFold(words []string, w string) bool {
	for _, x := range words {
		if len(x) == len(w) && containsFold(w, x) {
			return true
		}
	}
	return false
}

// plausibleValue reports whether v can be a secret rather than code, a
// placeholder, a path or a plain word.
func plausibleValue(v string, password bool) bool {
	minLen := 10
	if password {
		minLen = 6
	}
	if len(v) < minLen || len(v) > 1000 {
		return false
	}
	switch v[0] {
	case '{', '[', '&', '<':
		return false // templates, lists, tags
	case '$', '@', '%', '#':
		if isReference(v) {
			return false // variables and references: $DB_PASS, @Microsoft.KeyVault(…)
		}
	case '/', '~', '.':
		if isPath(v) {
			return false
		}
	}
	if strings.HasPrefix(v, "http://") || strings.HasPrefix(v, "https://") || strings.HasPrefix(v, "file:") || strings.HasPrefix(v, "urn:") {
		return false
	}
	if strings.IndexByte(v, '\n') >= 0 || isCode(v) || strings.IndexByte(v, '(') >= 0 && !password {
		return false // code
	}
	wordy, digitsOnly, same, ident := true, true, true, true
	var lower, upper, digits, symbols int
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c >= 'a' && c <= 'z':
			lower++
		case c >= 'A' && c <= 'Z':
			upper++
		case c >= '0' && c <= '9':
			digits++
		case c == '_' || c == '-' || c == '.':
		default:
			symbols++
			ident = false
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' || c == '.' || c == '-' || c == ':' || c == '/' || c == ' ' || c == '=') {
			wordy = false
		}
		if c < '0' || c > '9' {
			digitsOnly = false
		}
		if c != v[0] {
			same = false
		}
	}
	if wordy || same || digitsOnly || dottedIdent(v) && !randomPart(v) {
		return false // identifiers, type names, prose, repeated characters, numbers, pkg.Name
	}
	if isPlaceholder(v) {
		return false
	}
	classes := min(lower, 1) + min(upper, 1) + min(digits, 1) + min(symbols, 1)
	if password {
		return classes >= 2
	}
	if strings.IndexByte(v, ',') >= 0 {
		return false // a list or a struct tag (protobuf_key:"varint,1,opt")
	}
	if prose(v) {
		return false // an error message, not a key
	}
	if ident && isSecretName(v) {
		return false // a name such as _bm25_stats_key or ns_tsig_key1, not a value
	}
	// Keys are random: mixed case and digits, or many digits (hex); a word
	// with a digit in it (fts5yyminor) is a name.
	return entropy(v) >= 3 && (classes >= 3 || classes == 2 && digits >= 2)
}

// isReference reports whether v, which starts with $ @ % or #, refers to
// a value kept elsewhere rather than being one: ${VAR}, $(cmd), $VAR,
// $dbPassword, @Microsoft.KeyVault(…), @db_pass, %APPDATA%, %(name)s,
// #{secret}. A name after $ or @ that mixes lower case and digits
// ($Gf5Rk9Pw3Mz, @dmin12345678) is a password that starts with a symbol.
func isReference(v string) bool {
	if len(v) < 2 {
		return true
	}
	switch v[0] {
	case '#':
		return v[1] == '{'
	case '%':
		if v[1] == '(' {
			return true
		}
		n := identLen(v[1:])
		return n > 0 && 1+n < len(v) && v[1+n] == '%'
	}
	if v[0] == '$' && (v[1] == '{' || v[1] == '(') {
		return true
	}
	n := identLen(v[1:])
	if n == 0 {
		return false
	}
	name := v[1 : 1+n]
	if v[0] == '@' && 1+n < len(v) && v[1+n] == '(' {
		return true // @Microsoft.KeyVault(SecretUri=…)
	}
	var lower, digits bool
	for i := 0; i < len(name); i++ {
		lower = lower || name[i] >= 'a' && name[i] <= 'z'
		digits = digits || name[i] >= '0' && name[i] <= '9'
	}
	return !(lower && digits)
}

// identLen returns the length of the (maybe dotted) identifier that starts s.
func identLen(s string) int {
	i := 0
	for i < len(s) && (isLetter(s[i]) || s[i] == '_' || i > 0 && (s[i] >= '0' && s[i] <= '9' || s[i] == '.')) {
		i++
	}
	return i
}

// isPath reports whether v, which starts with / ~ or ., is a path or a
// file name (/run/secrets/db, ~/.pgpass, ./secret.txt, .env.local) rather
// than a password that starts with the symbol (/Xk9mPq2zLw77).
func isPath(v string) bool {
	if strings.IndexByte(v[1:], '/') >= 0 {
		return true
	}
	for i := 1; i < len(v); i++ {
		c := v[i]
		if !(c >= 'a' && c <= 'z' || c == '_' || c == '-' || c == '.') {
			return false
		}
	}
	return true
}

// masked reports whether v is a mask, or a few characters around one:
// xxxx, ****, sk-xxxx, abc***, sk-abcd****wxyz. A run of three x or *
// inside a random password (Xk9xxxmPq2zLw77) is no mask.
func masked(v string) bool {
	total, longest := 0, 0
	for i := 0; i < len(v); {
		c := v[i] | 0x20
		if c != 'x' && v[i] != '*' {
			i++
			continue
		}
		j := i
		for j < len(v) && (v[j] == v[i] || c == 'x' && v[j]|0x20 == 'x') {
			j++
		}
		if n := j - i; n >= 3 {
			total += n
			longest = max(longest, n)
		}
		i = j
	}
	return longest >= 4 || total > 0 && 3*total >= len(v)
}

// angleHole reports whether v holds a <name> to fill in: <your-password>,
// sk-<key>, <DB_PASS>. The name holds a run of three letters of one case;
// Xk9mPq2<zLw>77 holds none.
func angleHole(v string) bool {
	for i := strings.IndexByte(v, '<'); i >= 0; {
		j := strings.IndexByte(v[i+1:], '>')
		if j < 0 {
			return false
		}
		name := v[i+1 : i+1+j]
		run, ok := 0, j > 0 && j <= 40
		for k := 0; k < len(name) && ok; k++ {
			c := name[k]
			switch {
			case k > 0 && isLetter(c) && isUpper(c) == isUpper(name[k-1]) && isLetter(name[k-1]):
				run++
			case isLetter(c):
				run = 1
			case c >= '0' && c <= '9' || c == '_' || c == '-' || c == ' ' || c == '.':
				run = 0
			default:
				ok = false
			}
			if run >= 3 {
				return true
			}
		}
		n := strings.IndexByte(v[i+1:], '<')
		if n < 0 {
			return false
		}
		i += 1 + n
	}
	return false
}

// containsFold reports whether s contains the lower-case ASCII word w in
// any case, without allocating.
func containsFold(s, w string) bool {
	if len(w) > len(s) {
		return false
	}
outer:
	for i := 0; i+len(w) <= len(s); i++ {
		for j := 0; j < len(w); j++ {
			c := s[i+j]
			if c >= 'A' && c <= 'Z' {
				c += 'a' - 'A'
			}
			if c != w[j] {
				continue outer
			}
		}
		return true
	}
	return false
}

// findURLPasswords appends the password of every scheme://user:password@host
// in s; scheme, user and host stay. The user runs to the first ':'; the
// password is every byte but a blank from there to the '@' before the
// host, the last one when the password holds '@' too (app:Xk9@2zL@db).
func findURLPasswords(s string, out []span) []span {
	for p := 0; ; {
		i := strings.Index(s[p:], "://")
		if i < 0 {
			return out
		}
		p += i + 3
		colon := p
		for colon < len(s) && colon-p < 128 && isUserByte(s[colon]) {
			colon++
		}
		if colon >= len(s) || s[colon] != ':' {
			continue // no password (ssh://git@host), or none we know
		}
		end := passwordEnd(s, colon+1)
		if end < 0 {
			continue
		}
		a, b := colon+1, end
		// user:user@ (postgres:postgres, guest:guest) is a default, not a
		// secret.
		if a == b || s[a:b] == s[p:colon] || !plausibleURLPassword(s[a:b]) {
			continue
		}
		out = append(out, span{start: a, end: b, id: idURLPassword, prio: prioURL})
		p = end
	}
}

// isUserByte reports whether c can be in the user of a URL's userinfo
// (postgres.abcdefghijklmnop, x-access-token, %40-escaped names): no blank,
// nor a byte that ends an authority or a quoted string.
func isUserByte(c byte) bool {
	return c > ' ' && c < 0x7f && strings.IndexByte("/?#@:\"'`<>\\()[]{},;", c) < 0
}

// passwordEnd returns the index of the '@' that ends a URL password
// starting at s[a], or -1 when there is none: the password runs over any
// byte but a blank to an '@' followed by a host. A password that holds
// '/', '?' or '#' is no host:port and path (localhost:3000/@vite,
// x.com:443/@user, svc:v2/users/@me, api:v1/users?email=bob@example.com):
// it must not start with a port, nor hold = or &, nor end with '/'. An '@'
// after the first one ends the password instead when what lies between
// is no host with a path (app:Xk9mPq@2zLw77@db/app).
func passwordEnd(s string, a int) int {
	at := -1
	path := false
	e := a
	for ; e < len(s) && e-a < 300 && !isBlank(s[e]); e++ {
		c := s[e]
		if c == '@' {
			if e+1 < len(s) && isHostStart(s[e+1]) && s[e-1] != '/' {
				at = e
				break
			}
			continue
		}
		if c == '/' || c == '?' || c == '#' {
			path = true
		}
		if path && (c == '=' || c == '&') {
			return -1 // a query: ?email=a@b
		}
	}
	examined(e - a)
	if at < 0 {
		return -1
	}
	if path || strings.IndexAny(s[a:at], "\"'`\\") >= 0 {
		port := a
		for port < at && s[port] >= '0' && s[port] <= '9' {
			port++
		}
		if port > a && strings.IndexByte("/?#\"'`\\)]}>,;|", s[port]) >= 0 {
			return -1 // a port, then a path or the end of a quoted URL
		}
	}
	// A later '@' ends the password when the bytes up to it are no host
	// with a path, nor the end of a quoted string.
	for {
		n := at + 1
		for n < len(s) && n-a < 300 && !isBlank(s[n]) && strings.IndexByte("@/?#\"'`\\=&<>", s[n]) < 0 {
			n++
		}
		examined(n - at)
		if n+1 >= len(s) || s[n] != '@' || !isHostStart(s[n+1]) {
			return at
		}
		at = n
	}
}

func isHostStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '['
}

// plausibleURLPassword rejects placeholders: user:password@, user:****@,
// :${DB_PASS}@, :$PGPASSWORD@, :<pass#word>@ and the like.
func plausibleURLPassword(v string) bool {
	switch v[0] {
	case '$', '%':
		if isReference(v) {
			return false
		}
	case '<', '"', '\'', '`':
		return false // a hole, or code that joins strings: "postgres://app:"+pw+"@db"
	}
	same := true
	for i := 1; i < len(v); i++ {
		if v[i] != v[0] {
			same = false
		}
	}
	if same {
		return false
	}
	return !isPlaceholder(v)
}

// dottedIdent reports whether v is a qualified name such as
// oauth2.AuthStyleInHeader or config.apiKey2: code, not a value.
func dottedIdent(v string) bool {
	dots := 0
	start := true
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case c == '.':
			if start {
				return false
			}
			dots++
			start = true
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_':
			start = false
		case c >= '0' && c <= '9':
			if start {
				return false
			}
		default:
			return false
		}
	}
	return dots > 0 && !start
}

// randomPart reports whether a part of the dotted v, between dots, is
// random rather than a name: eight bytes or more of both cases with a
// digit before a letter at least twice (Zq7LeakATTNAME9x8Y2w.txt,
// Ab3dEf9hIj.Kl0mNoPq7), where names have it once at most
// (x509Certificate.Raw, sha256Sum.Hex).
func randomPart(v string) bool {
	for _, part := range strings.Split(v, ".") {
		var lower, upper bool
		turns := 0
		for i := 0; i < len(part); i++ {
			c := part[i]
			lower = lower || c >= 'a' && c <= 'z'
			upper = upper || isUpper(c)
			if c >= '0' && c <= '9' && i+1 < len(part) && isLetter(part[i+1]) {
				turns++
			}
		}
		if len(part) >= 8 && lower && upper && turns >= 2 {
			return true
		}
	}
	return false
}

// indexFrom returns the index of c in s at or after from, or len(s).
func indexFrom(s string, c byte, from int) int {
	if i := strings.IndexByte(s[from:], c); i >= 0 {
		return from + i
	}
	return len(s)
}

// isScheme reports whether v is an authorization scheme, which the secret
// follows after a space.
func isScheme(v string) bool {
	return strings.EqualFold(v, "bearer") || strings.EqualFold(v, "basic") || strings.EqualFold(v, "token") || strings.EqualFold(v, "bot")
}

// checkNetrc judges the password of a .netrc entry.
func checkNetrc(s string, m []int) string {
	if v := s[m[2]:m[3]]; !plausibleValue(v, true) || isEmail(v) {
		return ""
	}
	return idPassword
}

// checkSpacedKey judges ENV KEY value and setx KEY value: the key must
// name a secret.
func checkSpacedKey(s string, m []int) string {
	key := s[m[2]:m[3]]
	return judge(key, classifyKey(key), s[m[4]:m[5]])
}

// checkShellSpaced judges setx KEY value as checkSpacedKey does, when the
// command starts a word: the text its regexp ran on may start inside one
// (reset). It takes a quoted value's quotes off ("…", '…', JSON's \"…\"),
// and ends a bare one before a closing ' or ; and before an escape of
// JSON text (\n, \").
func checkShellSpaced(s string, m []int) string {
	if m[0] > 0 && isWordByte(s[m[0]-1]) {
		return ""
	}
	a, b := m[4], m[5]
	switch {
	case strings.HasPrefix(s[a:b], `\"`):
		a, b = a+2, b-2
	case s[a] == '"' || s[a] == '\'':
		a, b = a+1, b-1
	default:
		for i := a; i+1 < b; i++ {
			if s[i] == '\\' && strings.IndexByte("nrt\"", s[i+1]) >= 0 {
				b = i
				break
			}
		}
		for b > a && strings.IndexByte(";'\\", s[b-1]) >= 0 {
			b--
		}
	}
	if a >= b {
		return ""
	}
	m[4], m[5] = a, b
	return checkSpacedKey(s, m)
}

// shellSetStart is the shell rule's gate: it returns where the command
// set, setx, setenv or export starts that sets the key whose last word is
// the keyword at s[at], past the command's flags (set -x -U, setx /M), or
// -1 when there is none.
func shellSetStart(s string, at, back int) int {
	examined(min(at, back)) // an upper bound
	k := at
	for k > 0 && at-k < 64 && isWordByte(s[k-1]) {
		k--
	}
	i := k
	for n := 0; n < 4; n++ {
		j := skipBack(s, i, 4, " \t")
		if j == i || at-j > back {
			return -1
		}
		w := j
		for w > 0 && j-w < 6 && isLetter(s[w-1]) {
			w--
		}
		if w > 0 && (s[w-1] == '-' || s[w-1] == '/') && w < j && j-w <= 4 {
			i = w - 1 // a flag
			continue
		}
		switch strings.ToLower(s[w:j]) {
		case "set", "setx", "setenv", "export":
			if w == 0 || !isWordByte(s[w-1]) {
				return w
			}
		}
		return -1
	}
	return -1
}

// netrcStart is the .netrc rule's gate: before the password, words go
// back in pairs (login user, account a, port p, at most three) to machine
// host or default, which starts the entry.
func netrcStart(s string, at, back int) int {
	from := max(0, at-back)
	examined(at - from) // an upper bound
	// the word that ends before the blanks at e
	word := func(e int) (int, int) {
		e = skipBack(s, e, 40, " \t\r\n")
		b := e
		for b > from && e-b < 100 && !isBlank(s[b-1]) {
			b--
		}
		return b, e
	}
	i := at
	for n := 0; n < 4 && i > from; n++ {
		b, e := word(i)
		if s[b:e] == "default" {
			return b
		}
		kb, ke := word(b)
		switch s[kb:ke] {
		case "machine":
			return kb
		case "login", "account", "port":
			i = kb
			continue
		}
		return -1
	}
	return -1
}

// xmlStart is the XML rule's gate: the < of the opening tag whose name
// holds the keyword at s[at], when a closing tag follows.
func xmlStart(s string, at, back int) int {
	ahead := s[at:min(len(s), at+400)]
	examined(len(ahead) + min(at, back)) // an upper bound
	if strings.Index(ahead, "</") < 0 {
		return -1
	}
	i := at
	for i > 0 && at-i < back && (isWordByte(s[i-1]) || s[i-1] == '.' || s[i-1] == ':' || s[i-1] == '-') {
		i--
	}
	if i == 0 || s[i-1] != '<' {
		return -1
	}
	return i - 1
}

// checkXMLElement judges <key>value</key>: the tags must match and the
// name be a secret's.
func checkXMLElement(s string, m []int) string {
	if s[m[2]:m[3]] != s[m[6]:m[7]] {
		return ""
	}
	name := s[m[2]:m[3]]
	if i := strings.LastIndexByte(name, ':'); i >= 0 {
		name = name[i+1:] // a namespace prefix
	}
	k := classifyKey(name)
	if k == kindKey {
		return "" // <key>, <releaseManagerKey>: in XML a name or a fingerprint
	}
	return judge(name, k, s[m[4]:m[5]])
}

// judge returns the marker for value v of key, of kind k, or "" when v
// is no secret. KEY=value, ENV KEY value and <key>value</key> are judged by
// it; findAssignments keeps more values still (paths, GPG key ids). Digits
// alone are a secret only as a PIN, or as a password of 6 digits or more
// under a key whose last word names the password (PASSWORD=48213390, not
// PASSWORD_HASH_ITERATIONS=600000).
func judge(key string, k keyKind, v string) string {
	if digitsOnly(v) {
		if k == kindPIN && pinDigits(v, 4) || k == kindPassword && pinDigits(v, 6) && lastPartNamesPassword(key) ||
			k == kindPassword && passcodeKey(key) && pinDigits(v, 4) {
			return idPassword // a passcode of digits is a PIN
		}
		return ""
	}
	bare := bareKey(key)
	if k == kindNone || k == kindPIN || !plausibleValue(v, k == kindPassword) || k == kindKey && len(v) < 20 || k != kindPassword && nameLike(v, bare) {
		return ""
	}
	return k.id()
}

func digitsOnly(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return v != ""
}

// pinDigits reports whether the digits v can be a PIN or a password of
// digits: min to 12 of them (64 for a password), not one digit repeated
// (0000).
func pinDigits(v string, min int) bool {
	if len(v) < min || len(v) > 12 && min < 6 || len(v) > 64 {
		return false
	}
	return strings.Count(v, v[:1]) != len(v)
}

// lastPartNamesPassword reports whether the last word of key (split as
// classifyKey splits it) names a password or a PIN: DB_PASSWORD, pwd,
// passcode, sim_pin, mot_de_passe, motDePasse; but not PASS alone
// (pass: 123456 counts tests) nor PASSWORD_ITERATIONS.
func lastPartNamesPassword(key string) bool {
	i := lastPartStart(key)
	last := strings.ToLower(key[i:])
	if last == "pass" || last == "pw" {
		return i > 0 // DB_PASS, not PASS
	}
	if last == "passe" {
		// French: mot de passe, whatever joins its words
		low := strings.ToLower(key)
		return strings.HasSuffix(strings.NewReplacer("_", "", "-", "", ".", "", " ", "").Replace(low), "motdepasse")
	}
	if passwordParts[last] || last == "pin" || last == "pincode" {
		return true
	}
	for _, w := range passwordWords {
		if strings.Contains(last, string(w)) {
			return true
		}
	}
	return false
}

// passcodeKey reports a key whose last word is passcode, written whole or
// in two (passCode, pass_code, PASS-CODE).
func passcodeKey(key string) bool {
	i := lastPartStart(key)
	switch strings.ToLower(key[i:]) {
	case "passcode":
		return true
	case "code":
		prev := strings.TrimRight(key[:i], "_-. ")
		return prev != "" && strings.EqualFold(prev[lastPartStart(prev):], "pass")
	}
	return false
}

// lastPartStart returns where the last word of key starts.
func lastPartStart(key string) int {
	i := len(key)
	for i > 0 && key[i-1] != '_' && key[i-1] != '-' && key[i-1] != '.' &&
		!(isUpper(key[i-1]) && i-1 > 0 && (key[i-2] >= 'a' && key[i-2] <= 'z' || key[i-2] >= '0' && key[i-2] <= '9')) {
		i--
	}
	if i > 0 && isUpper(key[i-1]) {
		i-- // the hump's capital starts the part: dbPassword
	}
	return i
}

// id is the marker's id for the value of a key of kind k.
func (k keyKind) id() string {
	if k == kindPassword || k == kindPIN {
		return idPassword
	}
	return idSecret
}

// checkProsePassword judges the X of "my password is X" or password "X":
// it must look like a password, not a word: eight bytes or more holding a
// letter, and a digit or a symbol.
func checkProsePassword(s string, m []int) string {
	if i := strings.Index(s[m[2]:m[3]], "&quot;"); i >= 0 {
		m[3] = m[2] + i // HTML: printf(&quot;Password is correct.&quot;)
	}
	for m[3] > m[2] && strings.IndexByte(".,;:)", s[m[3]-1]) >= 0 {
		m[3]-- // the end of a sentence
	}
	v := s[m[2]:m[3]]
	if len(v) < 8 || strings.Contains(v, "://") || isEmail(v) || !plausibleValue(v, true) {
		return ""
	}
	letter, other := false, false
	for i := 0; i < len(v); i++ {
		c := v[i]
		switch {
		case isLetter(c):
			letter = true
		case c == '-' || c == '_' || c == '.' || c == '/':
		default:
			other = true
		}
	}
	if !letter || !other {
		return ""
	}
	return idPassword
}

// checkPIN judges the digits after PIN, pin code or passcode: not one
// digit repeated, nor the start of a version, a decimal, a date or a port
// (pin 1234.5, PIN 8080/tcp); after a lower-case pin or passcode alone,
// only with is or a colon (pin 2024 as the baseline is no PIN); never
// glued to the word (PIN1234 names a part), nor a number of something
// (the PIN 2048 of the chip) without is or a colon.
func checkPIN(s string, m []int) string {
	v := s[m[6]:m[7]]
	if !pinDigits(v, 4) {
		return ""
	}
	if e := m[7]; e < len(s) {
		c := s[e]
		if strings.IndexByte("/:-_@", c) >= 0 || (c == '.' || c == ',') && e+1 < len(s) && isWordByte(s[e+1]) {
			return ""
		}
	}
	word := s[m[2]:m[3]]
	between := s[m[3]:m[6]] // blanks, is or was, a colon, a quote
	if between == "" {
		return "" // a part's name: PIN1234
	}
	if m[4] < 0 && !containsFold(between, "is") && !containsFold(between, "was") {
		// neither a colon nor is: PIN 4821
		if strings.HasPrefix(s[m[7]:], " of ") && !possessiveNext(s[m[7]+4:]) {
			return "" // the PIN 2048 of the chip, not the PIN 4821 of my card
		}
		if len(word) == 3 && word != "PIN" || word == "passcode" {
			return "" // pin 2024 as the baseline
		}
	}
	return idPassword
}

// possessiveNext reports whether s opens with a possessive: whose card or
// account a PIN is ("of my card", "of your SIM").
func possessiveNext(s string) bool {
	w, _, _ := strings.Cut(s, " ")
	switch strings.ToLower(w) {
	case "my", "your", "our", "his", "her", "their":
		return true
	}
	return false
}

// isEmail reports whether v is an address: name@host.tld, or user@site
// of lower-case words (anonymous FTP's password).
func isEmail(v string) bool {
	i := strings.IndexByte(v, '@')
	if i <= 0 || strings.Count(v, "@") != 1 {
		return false
	}
	if strings.IndexByte(v[i+1:], '.') > 0 {
		return true
	}
	for j := 0; j < len(v); j++ {
		if c := v[j]; c != '@' && c != '.' && c != '-' && (c < 'a' || c > 'z') {
			return false
		}
	}
	return true
}

// bareKey reports whether key is one word alone (key, token, Auth,
// SECRET): its value is more often a name than under API_KEY.
func bareKey(key string) bool {
	for i := 0; i < len(key); i++ {
		c := key[i]
		if !isLetter(c) || i > 0 && isUpper(c) && !isUpper(key[i-1]) {
			return false
		}
	}
	return true
}

// nameLike reports whether v, the value of a secret-named key that is not
// a password, is a name rather than a secret: lower-case words joined by _
// (tenant_id_2024, user_session_v2) or, under a bare key, three words or
// more run together in camelCase, each Capitalised and readable, with two
// numbers at most (CustomerOrderLineItem2024, NextPageCursorXyz12345,
// GoogleOAuth2ProviderConfigV3). A random key has words of mixed case
// (DAkmt), or that do not read (Lmbhd).
func nameLike(v string, bare bool) bool {
	if snakeName(v) {
		return true
	}
	if !bare {
		return false
	}
	if v == "" || !isLetter(v[0]) {
		return false
	}
	long, longLetters, readOK, runs := 0, 0, 0, 0
	for i := 0; i < len(v); {
		c := v[i]
		if c >= '0' && c <= '9' {
			for i < len(v) && v[i] >= '0' && v[i] <= '9' {
				i++
			}
			runs++
			continue
		}
		if !isLetter(c) {
			return false
		}
		j := wordEnd(v, i)
		w := v[i:j]
		upper := 0
		for k := 0; k < len(w); k++ {
			if isUpper(w[k]) {
				upper++
			}
		}
		switch {
		case len(w) == 1:
			if upper == 0 || j == len(v) || strings.TrimLeft(v[j:], "0123456789") != "" {
				return false // an initial only before the closing number: V2, Q4
			}
		case len(w) == 2:
			if !inFold(twoLetterWords, w) {
				return false
			}
		case upper == 0 && i == 0: // the first word: myToken
		case upper == 1 && isUpper(w[0]): // Cursor
		case w == "OAuth":
		default:
			return false
		}
		if len(w) >= 3 {
			long++
			longLetters += len(w)
			if readable(w) {
				readOK++
			}
		}
		i = j
	}
	return long >= 3 && readOK >= long-long/5 && runs <= 2 && longLetters >= 4*long // words of four letters on average
}

// onsets are the clusters of consonants that start English words.
var onsets = []string{"bl", "br", "ch", "cl", "cr", "dr", "dw", "fl", "fr", "gl", "gr", "kn", "ph", "pl", "pr", "ps",
	"sc", "sh", "sk", "sl", "sm", "sn", "sp", "st", "sw", "th", "tr", "tw", "wh", "wr", "qu",
	"str", "spr", "scr", "thr", "chr", "sch", "shr", "spl", "squ", "phr"}

// twoLetterWords are the words of two letters a camelCase name holds.
var twoLetterWords = []string{"id", "my", "of", "to", "in", "on", "by", "up", "is", "at", "no", "ok", "db", "ui", "io", "os", "go", "js", "ts", "v1", "or", "as", "if", "it", "we", "do", "me", "qa"}

// snakeName reports whether v is lower-case words joined by _, each maybe
// followed by digits, and numbers of four digits at most: tenant_id,
// user_session_v2, shard_2024_11.
func snakeName(v string) bool {
	if strings.IndexByte(v, '_') < 0 {
		return false
	}
	words := 0
	for _, part := range strings.Split(v, "_") {
		i := 0
		for i < len(part) && part[i] >= 'a' && part[i] <= 'z' {
			i++
		}
		j := i
		for j < len(part) && part[j] >= '0' && part[j] <= '9' {
			j++
		}
		if j != len(part) || i == 0 && (j == 0 || j > 4) {
			return false
		}
		if i >= 2 {
			words++
		}
	}
	return words >= 2
}

// readable reports whether the word w reads as one: three letters or more
// with a vowel, no four consonants in a row, and of one case after its
// first letter (Cursor, OAuth, user) or all capitals of five at most (API).
func readable(w string) bool {
	if len(w) < 3 {
		return false
	}
	upper := 0
	for i := 0; i < len(w); i++ {
		if isUpper(w[i]) {
			upper++
		}
	}
	if upper == len(w) && len(w) > 5 || upper > 2 && upper < len(w) {
		return false
	}
	onset := 0
	for onset < len(w) && strings.IndexByte("aeiouy", lowerByte(w[onset])) < 0 {
		onset++
	}
	if onset >= 2 && !inFold(onsets, w[:min(onset, len(w))]) {
		return false // a word starts with a vowel or a cluster English has
	}
	vowels, run := 0, 0
	for i := 0; i < len(w); i++ {
		switch lowerByte(w[i]) {
		case 'a', 'e', 'i', 'o', 'u', 'y':
			vowels++
			run = 0
		default:
			if run++; run >= 4 && !(run == 4 && inFold(onsets, w[i-2:i+1]) && i+1 < len(w)) {
				return false // Abstract's bstr is a syllable's end and an onset
			}
		}
	}
	return vowels > 0 && 5*vowels >= len(w)
}
