package claudeai

import (
	"html"
	"regexp"
	"strings"
)

// artifactTag is one <antArtifact …>…</antArtifact> block of assistant text.
type artifactTag struct {
	identifier, typ, language, title, content string
}

// attrRE reads the attributes of an <antArtifact> tag, in either quote style.
var attrRE = regexp.MustCompile(`([A-Za-z_:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')`)

const (
	thinkOpen  = "<antThinking>"
	thinkClose = "</antThinking>"
	artOpen    = "<antArtifact"
	artClose   = "</antArtifact>"
)

// extractMarkup takes the claude.ai markup out of assistant text: each
// <antThinking> block goes to thinking, each <antArtifact> block becomes an
// artifact and leaves a short "[artifact: title]" marker behind, so the
// artifact's text is indexed once, as the artifact. A block cut short (no
// closing tag) runs to the end of the text.
func extractMarkup(text string) (content, thinking string, arts []artifactTag) {
	if !strings.Contains(text, thinkOpen) && !strings.Contains(text, artOpen) {
		return text, "", nil
	}
	var out, think []string
	rest := text
	for {
		ti := strings.Index(rest, thinkOpen)
		ai := strings.Index(rest, artOpen)
		if ti < 0 && ai < 0 {
			out = append(out, rest)
			break
		}
		if ti >= 0 && (ai < 0 || ti < ai) {
			out = append(out, rest[:ti])
			body := rest[ti+len(thinkOpen):]
			inner, after, _ := strings.Cut(body, thinkClose)
			if t := strings.TrimSpace(inner); t != "" {
				think = append(think, t)
			}
			rest = after
			continue
		}
		// The tag's end: the first '>' after its name. A tag with no end
		// is not markup; keep it as text.
		end := strings.IndexByte(rest[ai:], '>')
		if end < 0 {
			out = append(out, rest)
			break
		}
		out = append(out, rest[:ai])
		attrs := rest[ai+len(artOpen) : ai+end]
		body := rest[ai+end+1:]
		inner, after, _ := strings.Cut(body, artClose)
		a := artifactTag{content: strings.Trim(inner, "\r\n")}
		for _, m := range attrRE.FindAllStringSubmatch(attrs, -1) {
			v := html.UnescapeString(m[2] + m[3])
			switch strings.ToLower(m[1]) {
			case "identifier":
				a.identifier = v
			case "type":
				a.typ = v
			case "language":
				a.language = v
			case "title":
				a.title = v
			}
		}
		out = append(out, "[artifact: "+firstNonEmpty(a.title, a.identifier, "untitled")+"]")
		arts = append(arts, a)
		rest = after
	}
	return joinParts(out), strings.Join(think, "\n\n"), arts
}

// joinParts joins pieces of text cut around removed blocks with one blank
// line, dropping the pieces left empty.
func joinParts(parts []string) string {
	kept := parts[:0:0]
	for _, p := range parts {
		if p = strings.TrimSpace(p); p != "" {
			kept = append(kept, p)
		}
	}
	return strings.Join(kept, "\n\n")
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s = strings.TrimSpace(s); s != "" {
			return s
		}
	}
	return ""
}
