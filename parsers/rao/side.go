package rao

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/convsearch/convsearch/conversation"
	"github.com/convsearch/convsearch/parsers"
	"github.com/convsearch/convsearch/parsers/loose"
)

// sideInfo is what the side files tell about the conversation besides the
// summaries and notes they add to it.
type sideInfo struct {
	title       string
	first, last time.Time
}

// side reads the companions of one log. Every problem is a warning naming the
// log (the unit) and the companion: a side file never stops a parse.
type side struct {
	path string // the log
	dir  string // its conversation folder
	res  *parsers.Result
	c    *conversation.Conversation
	info sideInfo
	// changed maps a message id to the file file_changes.json says that
	// message changed, to name the file of a diff.
	changed map[string]string
}

// readSide reads the side files of the log at path into c and returns the
// title and dates they give.
func readSide(path, dir, folder string, c *conversation.Conversation, res *parsers.Result) sideInfo {
	s := &side{path: path, dir: dir, res: res, c: c, changed: map[string]string{}}
	s.names(folder)
	s.summaries()
	s.fileChanges()
	s.diffs()
	s.scripts()
	s.attachments()
	return s.info
}

// read returns the bytes of the side file name in the conversation folder,
// or nil when it is missing or unreadable (a warning).
func (s *side) read(file string) []byte {
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		s.warn(err)
		return nil
	}
	defer f.Close()
	data, err := loose.ReadAll(file, f)
	if err != nil {
		s.warn(err)
		return nil
	}
	return data
}

// warn records a side-file problem as a warning about the log, keeping the
// side file's own path and line in the message.
func (s *side) warn(err error) {
	s.res.Warn(&parsers.Error{Path: s.path, Err: err})
}

func (s *side) shape(file string, format string, args ...any) {
	s.warn(parsers.Errorf(file, 0, parsers.ErrShape, format, args...))
}

// seen records a side-file time for the conversation's dates.
func (s *side) seen(t time.Time) {
	if t.IsZero() {
		return
	}
	if s.info.first.IsZero() || t.Before(s.info.first) {
		s.info.first = t
	}
	if t.After(s.info.last) {
		s.info.last = t
	}
}

// unmarshal decodes a side file, warning when it is not JSON or not of the
// expected shape.
func (s *side) unmarshal(file string, data []byte, v any) bool {
	if len(bytes.TrimSpace(data)) == 0 {
		return false // being written, or emptied: nothing to read
	}
	if err := loose.Unmarshal(file, data, v); err != nil {
		s.warn(err)
		return false
	}
	return true
}

// conversationN matches Rao's conversation folder names.
var conversationN = regexp.MustCompile(`^conversation_(\d+)$`)

// defaultName matches the names Rao gives before it names a conversation.
var defaultName = regexp.MustCompile(`^New conversation( \d+)?$`)

// names reads the conversation's title from conversation_names.csv (R's
// write.csv: quoted header and values), looked for beside the conversations
// folder first, then beside the conversation folder.
func (s *side) names(folder string) {
	m := conversationN.FindStringSubmatch(folder)
	if m == nil {
		return
	}
	want, _ := strconv.ParseInt(m[1], 10, 64)
	parent := filepath.Dir(s.dir)
	for _, file := range []string{filepath.Join(filepath.Dir(parent), namesName), filepath.Join(parent, namesName)} {
		data := s.read(file)
		if data == nil {
			continue
		}
		rows, ok := s.csv(file, data, ',')
		if !ok || len(rows) == 0 {
			continue
		}
		idCol, nameCol := column(rows[0], "conversation_id", 0), column(rows[0], "name", 1)
		for _, row := range rows[1:] {
			if idCol >= len(row) || nameCol >= len(row) {
				continue
			}
			if n, ok := intText(row[idCol]); !ok || n != want {
				continue
			}
			if title := strings.TrimSpace(row[nameCol]); title != "" && title != "NA" && !defaultName.MatchString(title) {
				s.info.title = title
				return
			}
		}
	}
}

// csv reads a CSV side file as loosely as encoding/csv allows.
func (s *side) csv(file string, data []byte, comma rune) ([][]string, bool) {
	r := csv.NewReader(bytes.NewReader(data))
	r.Comma = comma
	r.LazyQuotes = true
	r.FieldsPerRecord = -1
	rows, err := r.ReadAll()
	if err != nil {
		line := 0
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			line = pe.Line
		}
		s.warn(parsers.Errorf(file, line, parsers.ErrSyntax, "%v", err))
		return nil, false
	}
	return rows, true
}

// column returns the index of the header column named name, or def.
func column(header []string, name string, def int) int {
	for i, h := range header {
		if strings.EqualFold(strings.TrimSpace(h), name) {
			return i
		}
	}
	return def
}

// member is one value of a JSON object (with its key) or array (with its
// 1-based position as key), in file order.
type member struct {
	key string
	val json.RawMessage
}

// members lists the values of an object or array; ok is false for any other
// shape. Nothing-shapes give no members.
func members(raw json.RawMessage) (out []member, ok bool) {
	t := bytes.TrimSpace(raw)
	if loose.IsNull(t) {
		return nil, true
	}
	switch t[0] {
	case '[':
		var items []json.RawMessage
		if json.Unmarshal(t, &items) != nil {
			return nil, false
		}
		for i, it := range items {
			out = append(out, member{strconv.Itoa(i + 1), it})
		}
		return out, true
	case '{':
		// Decoded token by token: a map would lose the file's order.
		dec := json.NewDecoder(bytes.NewReader(t))
		if _, err := dec.Token(); err != nil {
			return nil, false
		}
		for dec.More() {
			tok, err := dec.Token()
			if err != nil {
				return nil, false
			}
			key, _ := tok.(string)
			var v json.RawMessage
			if err := dec.Decode(&v); err != nil {
				return nil, false
			}
			out = append(out, member{key, v})
		}
		return out, true
	}
	return nil, false
}

// summaries reads summaries.json: {"summaries": {"<n>": {query_number,
// timestamp, summary_text}}}, in query order.
func (s *side) summaries() {
	file := filepath.Join(s.dir, summariesName)
	data := s.read(file)
	if data == nil {
		return
	}
	var doc struct {
		Summaries json.RawMessage `json:"summaries"`
	}
	if !s.unmarshal(file, data, &doc) {
		return
	}
	ms, ok := members(doc.Summaries)
	if !ok {
		s.shape(file, "summaries is %s, want an object or array", loose.KindOf(doc.Summaries))
		return
	}
	type summary struct {
		order int64
		text  string
	}
	var out []summary
	for i, m := range ms {
		var e struct {
			QueryNumber json.RawMessage `json:"query_number"`
			Timestamp   json.RawMessage `json:"timestamp"`
			SummaryText json.RawMessage `json:"summary_text"`
			Text        json.RawMessage `json:"text"`
		}
		var text string
		if t := bytes.TrimSpace(m.val); len(t) > 0 && t[0] == '{' {
			if json.Unmarshal(t, &e) != nil {
				continue
			}
			text = textOf(e.SummaryText)
			if text == "" {
				text = textOf(e.Text)
			}
		} else {
			text = textOf(m.val) // a bare summary string
		}
		s.seen(loose.Time(e.Timestamp))
		order, ok := loose.Int(e.QueryNumber)
		if !ok {
			var err error
			if order, err = strconv.ParseInt(m.key, 10, 64); err != nil {
				order = int64(i)
			}
		}
		if text = strings.TrimSpace(clean(text)); text != "" {
			out = append(out, summary{order, text})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].order < out[j].order })
	for _, sm := range out {
		s.c.Summaries = append(s.c.Summaries, sm.text)
	}
}

// fileChanges reads file_changes.json: {"changes": [{action, file_path,
// content, previous_content, diff_type, timestamp, …}]}, one note each.
func (s *side) fileChanges() {
	file := filepath.Join(s.dir, changesName)
	data := s.read(file)
	if data == nil {
		return
	}
	var doc struct {
		Changes json.RawMessage `json:"changes"`
	}
	if !s.unmarshal(file, data, &doc) {
		return
	}
	ms, ok := members(doc.Changes)
	if !ok {
		s.shape(file, "changes is %s, want an array", loose.KindOf(doc.Changes))
		return
	}
	for _, m := range ms {
		var e struct {
			ConversationID  json.RawMessage `json:"conversation_id"`
			Timestamp       json.RawMessage `json:"timestamp"`
			Action          json.RawMessage `json:"action"`
			FilePath        json.RawMessage `json:"file_path"`
			Content         json.RawMessage `json:"content"`
			PreviousContent json.RawMessage `json:"previous_content"`
			DiffType        json.RawMessage `json:"diff_type"`
		}
		if json.Unmarshal(m.val, &e) != nil {
			continue
		}
		action, fpath := loose.String(e.Action), loose.String(e.FilePath)
		// conversation_id is the id of the message that made the change.
		if id := idString(e.ConversationID); id != "" && fpath != "" {
			if _, ok := s.changed[id]; !ok {
				s.changed[id] = fpath
			}
		}
		title := strings.TrimSpace(action + " " + fpath)
		if dt := loose.String(e.DiffType); dt != "" && dt != action {
			title += " (" + dt + ")"
		}
		// The new content is what the file became; a removal keeps only
		// what the file was.
		text := textOf(e.Content)
		if strings.TrimSpace(text) == "" {
			text = textOf(e.PreviousContent)
		}
		if strings.TrimSpace(text) == "" {
			text = fpath
		}
		t := loose.Time(e.Timestamp)
		s.seen(t)
		if title == "" && strings.TrimSpace(text) == "" {
			continue
		}
		s.c.Notes = append(s.c.Notes, conversation.Note{Kind: "file_change", Title: title, Text: clean(text), Time: t})
	}
}

// diffs reads conversation_diffs.json. It starts as {"diffs_by_msg_id": []}
// and later gains a "diffs" object keyed by the edit's function call message
// id; both keys can be present, and both are read.
func (s *side) diffs() {
	file := filepath.Join(s.dir, diffsName)
	data := s.read(file)
	if data == nil {
		return
	}
	var doc struct {
		ByMsgID json.RawMessage `json:"diffs_by_msg_id"`
		Diffs   json.RawMessage `json:"diffs"`
	}
	if !s.unmarshal(file, data, &doc) {
		return
	}
	files := s.editedFiles()
	seen := map[string]bool{}
	for _, f := range []struct {
		key string
		raw json.RawMessage
	}{{"diffs_by_msg_id", doc.ByMsgID}, {"diffs", doc.Diffs}} {
		ms, ok := members(f.raw)
		if !ok {
			s.shape(file, "%s is %s, want an object", f.key, loose.KindOf(f.raw))
			continue
		}
		for _, m := range ms {
			var e struct {
				MessageID  json.RawMessage `json:"message_id"`
				Timestamp  json.RawMessage `json:"timestamp"`
				DiffData   json.RawMessage `json:"diff_data"`
				NewContent json.RawMessage `json:"new_content"`
				FilePath   json.RawMessage `json:"file_path"`
				Filename   json.RawMessage `json:"filename"`
			}
			if json.Unmarshal(m.val, &e) != nil {
				continue
			}
			t := loose.Time(e.Timestamp)
			s.seen(t)
			text := diffText(e.DiffData)
			if text == "" {
				text = textOf(e.NewContent)
			}
			if strings.TrimSpace(text) == "" {
				continue
			}
			target := loose.String(e.FilePath)
			if target == "" {
				target = loose.String(e.Filename)
			}
			if target == "" {
				target = files[m.key]
			}
			if target == "" {
				target = files[idString(e.MessageID)]
			}
			if target == "" {
				target = s.changed[m.key]
			}
			if target == "" {
				target = s.changed[idString(e.MessageID)]
			}
			title := "diff of " + target
			if target == "" {
				title = "diff for message " + m.key
			}
			if key := title + "\x00" + text; !seen[key] {
				seen[key] = true
				s.c.Notes = append(s.c.Notes, conversation.Note{Kind: "diff", Title: title, Text: clean(text), Time: t})
			}
		}
	}
}

// diffText renders diff_data rows ({type: added|deleted|unchanged,
// content}) as a unified diff body.
func diffText(raw json.RawMessage) string {
	var rows []struct {
		Type    json.RawMessage `json:"type"`
		Content json.RawMessage `json:"content"`
	}
	if json.Unmarshal(bytes.TrimSpace(raw), &rows) != nil {
		return ""
	}
	var b strings.Builder
	for _, r := range rows {
		switch loose.String(r.Type) {
		case "added":
			b.WriteString("+ ")
		case "deleted":
			b.WriteString("- ")
		default:
			b.WriteString("  ")
		}
		b.WriteString(textOf(r.Content))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// editedFiles maps the id of each message with a function call to the file
// its arguments name, so a diff keyed by that id can say which file it is.
func (s *side) editedFiles() map[string]string {
	files := map[string]string{}
	for _, m := range s.c.Messages {
		for _, tc := range m.ToolCalls {
			var args map[string]json.RawMessage
			if m.ID == "" || json.Unmarshal([]byte(tc.Arguments), &args) != nil {
				continue
			}
			for _, k := range []string{"filename", "file_path", "file", "path"} {
				if f := loose.String(args[k]); f != "" {
					files[m.ID] = f
					break
				}
			}
		}
	}
	return files
}

// scripts reads script_history.tsv (R write.table, tab-separated, unquoted:
// filename, order, conversation_index) as one note listing the scripts in
// order.
func (s *side) scripts() {
	file := filepath.Join(s.dir, scriptsName)
	data := s.read(file)
	if data == nil {
		return
	}
	lines := strings.Split(strings.ReplaceAll(string(data), "\r\n", "\n"), "\n")
	nameCol, orderCol := 0, -1
	if len(lines) > 0 && strings.Contains(strings.ToLower(lines[0]), "filename") {
		header := strings.Split(lines[0], "\t")
		for i := range header {
			header[i] = strings.Trim(header[i], `" `)
		}
		nameCol, orderCol = column(header, "filename", 0), column(header, "order", -1)
		lines = lines[1:]
	}
	type script struct {
		order int64
		name  string
	}
	var out []script
	for i, l := range lines {
		if strings.TrimSpace(l) == "" {
			continue
		}
		fields := strings.Split(l, "\t")
		if nameCol >= len(fields) {
			continue
		}
		sc := script{order: int64(i), name: strings.TrimSpace(fields[nameCol])}
		if orderCol >= 0 && orderCol < len(fields) {
			if n, ok := intText(fields[orderCol]); ok {
				sc.order = n
			}
		}
		if sc.name != "" {
			out = append(out, sc)
		}
	}
	if len(out) == 0 {
		return
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].order < out[j].order })
	names := make([]string, len(out))
	for i, sc := range out {
		names[i] = sc.name
	}
	s.c.Notes = append(s.c.Notes, conversation.Note{Kind: "script", Title: "script history", Text: strings.Join(names, "\n")})
}

// attachments reads attachments.csv (R write.csv: timestamp, message_id,
// file_path, file_id, vector_store_id). Each file is attached to the message
// it names; one naming no message of the log becomes a note.
func (s *side) attachments() {
	file := filepath.Join(s.dir, attachName)
	data := s.read(file)
	if data == nil {
		return
	}
	rows, ok := s.csv(file, data, ',')
	if !ok || len(rows) == 0 {
		return
	}
	header := rows[0]
	tsCol, msgCol, pathCol := column(header, "timestamp", 0), column(header, "message_id", 1), column(header, "file_path", 2)
	byID := map[string]int{}
	for i, m := range s.c.Messages {
		if _, dup := byID[m.ID]; !dup && m.ID != "" {
			byID[m.ID] = i
		}
	}
	field := func(row []string, i int) string {
		if i < 0 || i >= len(row) {
			return ""
		}
		if v := strings.TrimSpace(row[i]); v != "NA" {
			return v
		}
		return ""
	}
	for _, row := range rows[1:] {
		fpath := field(row, pathCol)
		if fpath == "" {
			continue
		}
		t, _ := loose.ParseTime(field(row, tsCol))
		s.seen(t)
		a := conversation.Attachment{Name: baseName(fpath), Type: fileType(fpath), Ref: fpath}
		id := field(row, msgCol)
		if n, ok := intText(id); ok {
			id = strconv.FormatInt(n, 10)
		}
		if i, ok := byID[id]; ok {
			s.c.Messages[i].Attachments = append(s.c.Messages[i].Attachments, a)
			continue
		}
		title := a.Name
		if id != "" {
			title = fmt.Sprintf("%s (message %s)", a.Name, id)
		}
		s.c.Notes = append(s.c.Notes, conversation.Note{Kind: "attachment", Title: title, Text: fpath, Time: t})
	}
}

// fileTypes are the MIME types of the files people attach in RStudio. A fixed
// table, not mime.TypeByExtension, so the output does not vary by machine.
var fileTypes = map[string]string{
	".csv": "text/csv", ".tsv": "text/tab-separated-values", ".txt": "text/plain",
	".md": "text/markdown", ".qmd": "text/markdown", ".rmd": "text/markdown",
	".r": "text/x-r", ".py": "text/x-python", ".sql": "application/sql",
	".json": "application/json", ".xml": "application/xml", ".html": "text/html",
	".pdf": "application/pdf", ".png": "image/png", ".jpg": "image/jpeg", ".jpeg": "image/jpeg",
	".xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
	".xls":  "application/vnd.ms-excel", ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
	".rds": "application/x-rds", ".rdata": "application/x-rdata",
}

func fileType(p string) string {
	name := baseName(p)
	if i := strings.LastIndexByte(name, '.'); i > 0 {
		if t, ok := fileTypes[strings.ToLower(name[i:])]; ok {
			return t
		}
	}
	return "file"
}
