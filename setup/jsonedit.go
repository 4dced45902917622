package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// jsonDoc is a JSON (or JSON-with-comments) file as a syntax tree that is
// edited in place: what is not edited packs back byte for byte, comments and
// layout included.
type jsonDoc struct {
	root hujson.Value
	unit string // one level of indentation, as the file has it
	// marks are what setup did to the file's containers, so that remove
	// undoes exactly that: set adds to them, remove and removeHooks use
	// them up.
	marks []mark
}

// mark records a container (object or list) at Path that setup created,
// or, for one that was there and empty, the layout inside its brackets
// (Closing) before setup put its entry there: remove takes out a container
// only when setup created it and it is empty again, and gives an empty one
// back its layout. A container without a mark is never removed.
//
// A mark with an empty Path is about the file itself (JSON or TOML): Created
// says setup created it, Blank holds its bytes when it was there but held
// nothing (whitespace only) before setup's first edit. Remove deletes a file
// setup created, or gives an empty one back its bytes, once nothing but
// setup's own content was in it (see fileMark).
type mark struct {
	Path    []string `json:"path"`
	Created bool     `json:"created,omitempty"`
	Closing *string  `json:"closing,omitempty"`
	Blank   *string  `json:"blank,omitempty"`
}

// isFile reports whether m is about the file itself rather than one of its
// containers.
func (m mark) isFile() bool { return len(m.Path) == 0 && (m.Created || m.Blank != nil) }

// fileMark is the index of the mark about the file itself, -1 when none.
func fileMark(marks []mark) int {
	return slices.IndexFunc(marks, mark.isFile)
}

// blank reports whether data holds nothing: only whitespace, or a JSON
// object with nothing but whitespace in it.
func blank(data []byte) bool {
	t := bytes.TrimSpace(data)
	if len(t) >= 2 && t[0] == '{' && t[len(t)-1] == '}' {
		t = bytes.TrimSpace(t[1 : len(t)-1])
	}
	return len(t) == 0
}

// created records the containers at path[:k] for k from..to as made by setup.
func (d *jsonDoc) created(path []string, from, to int) {
	for k := from; k <= to; k++ {
		d.marks = append(d.marks, mark{Path: append([]string(nil), path[:k]...), Created: true})
	}
}

// noteClosing records the layout inside an empty container at path before
// setup adds to it.
func (d *jsonDoc) noteClosing(path []string, empty bool, closing hujson.Extra) {
	if !empty {
		return
	}
	for _, m := range d.marks {
		if m.Closing != nil && slices.Equal(m.Path, path) {
			return
		}
	}
	c := string(closing)
	d.marks = append(d.marks, mark{Path: append([]string(nil), path...), Closing: &c})
}

// at is the value at path (the root for none), nil when there is none.
func (d *jsonDoc) at(path []string) *hujson.Value {
	v := &d.root
	for _, name := range path {
		if v = member(v, name); v == nil {
			return nil
		}
	}
	return v
}

// member is the value of v's member name, nil when v is not an object or
// has no such member.
func member(v *hujson.Value, name string) *hujson.Value {
	obj, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil
	}
	j := memberIndex(obj, name)
	if j < 0 {
		return nil
	}
	return &obj.Members[j].Value
}

// emptyContainer reports whether v is an object or list with nothing in
// it, comments included, and where the layout inside its brackets is.
func emptyContainer(v *hujson.Value) (*hujson.Extra, bool) {
	switch c := v.Value.(type) {
	case *hujson.Object:
		return &c.AfterExtra, len(c.Members) == 0 && len(bytes.TrimSpace(c.AfterExtra)) == 0
	case *hujson.Array:
		return &c.AfterExtra, len(c.Elements) == 0 && len(bytes.TrimSpace(c.AfterExtra)) == 0
	}
	return nil, false
}

// tidy undoes, after an entry of setup's was taken out, the marks that
// apply: a container setup created that is empty again goes, an empty
// one gets back the layout it had. The other marks are kept.
func (d *jsonDoc) tidy() {
	marks := slices.Clone(d.marks)
	slices.SortStableFunc(marks, func(a, b mark) int { return len(b.Path) - len(a.Path) })
	var keep []mark
	for _, m := range marks {
		v := d.at(m.Path)
		if v == nil {
			continue // gone: nothing to undo
		}
		closing, empty := emptyContainer(v)
		switch {
		case !empty:
			keep = append(keep, m)
		case m.Created && len(m.Path) > 0:
			if parent, ok := d.objectAt(m.Path[:len(m.Path)-1]); ok {
				deleteMember(parent, memberIndex(parent, m.Path[len(m.Path)-1]))
			}
		case m.Closing != nil:
			*closing = hujson.Extra(*m.Closing)
		default:
			keep = append(keep, m)
		}
	}
	d.marks = keep
}

func parseJSON(data []byte) (*jsonDoc, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, err
	}
	if _, ok := v.Value.(*hujson.Object); !ok {
		return nil, errors.New("the top level is not a JSON object")
	}
	if err := noDuplicateKeys(v.Value, nil); err != nil {
		return nil, err
	}
	return &jsonDoc{root: v, unit: indentUnit(data)}, nil
}

// noDuplicateKeys refuses an object with a key twice: setup would edit
// the first while the agents' JSON readers take the last.
func noDuplicateKeys(v hujson.ValueTrimmed, path []string) error {
	switch c := v.(type) {
	case *hujson.Object:
		seen := map[string]bool{}
		for _, m := range c.Members {
			lit, ok := m.Name.Value.(hujson.Literal)
			if !ok {
				continue
			}
			name := lit.String()
			if seen[name] {
				return fmt.Errorf("the key %q is there twice%s, and JSON readers take the last one: keep one, then run setup again", name, where(path))
			}
			seen[name] = true
			if err := noDuplicateKeys(m.Value.Value, append(path, name)); err != nil {
				return err
			}
		}
	case *hujson.Array:
		for i, e := range c.Elements {
			if err := noDuplicateKeys(e.Value, append(path, fmt.Sprint(i))); err != nil {
				return err
			}
		}
	}
	return nil
}

func where(path []string) string {
	if len(path) == 0 {
		return ""
	}
	return " (in " + strings.Join(path, ".") + ")"
}

func (d *jsonDoc) bytes() []byte { return d.root.Pack() }

// indentUnit is the leading whitespace of the first indented line, the
// file's own step; two spaces when nothing is indented.
func indentUnit(data []byte) string {
	for line := range bytes.SplitSeq(data, []byte("\n")) {
		t := bytes.TrimLeft(line, " \t")
		if len(t) > 0 && len(t) < len(line) {
			return string(line[:len(line)-len(t)])
		}
	}
	return "  "
}

// lineIndent is the indentation an extra leaves before the next token when
// it ends a line, and whether it does.
func lineIndent(e hujson.Extra) (string, bool) {
	i := bytes.LastIndexByte(e, '\n')
	if i < 0 {
		return "", false
	}
	rest := e[i+1:]
	if len(bytes.Trim(rest, " \t")) != 0 {
		return "", false
	}
	return string(rest), true
}

func memberIndex(obj *hujson.Object, name string) int {
	for i, m := range obj.Members {
		if lit, ok := m.Name.Value.(hujson.Literal); ok && lit.String() == name {
			return i
		}
	}
	return -1
}

// render is val as a hujson value laid out to sit at indentation ind, or on
// one line.
func (d *jsonDoc) render(val any, ind string, inline bool) (hujson.ValueTrimmed, error) {
	var b []byte
	var err error
	if inline {
		b, err = json.Marshal(val)
	} else {
		b, err = json.MarshalIndent(val, ind, d.unit)
	}
	if err != nil {
		return nil, err
	}
	v, err := hujson.Parse(b)
	if err != nil {
		return nil, err
	}
	return v.Value, nil
}

// sameJSON reports whether v holds the same JSON as val, comments and
// layout aside.
func sameJSON(v hujson.Value, val any) bool {
	c := v.Clone()
	c.Standardize()
	var got, want any
	b, err := json.Marshal(val)
	if err != nil || json.Unmarshal(c.Pack(), &got) != nil || json.Unmarshal(b, &want) != nil {
		return false
	}
	return reflect.DeepEqual(got, want)
}

// descend walks path's objects from the root, returning the innermost and
// the indentation of the line its key is on; i is how many names of path
// exist as objects.
func (d *jsonDoc) descend(path []string) (obj *hujson.Object, ind string, i int, err error) {
	obj = d.root.Value.(*hujson.Object)
	for i = 0; i < len(path); i++ {
		j := memberIndex(obj, path[i])
		if j < 0 {
			return obj, ind, i, nil
		}
		m := &obj.Members[j]
		child, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			return nil, "", 0, fmt.Errorf("%s is not an object", strings.Join(path[:i+1], "."))
		}
		if li, ok := lineIndent(m.Name.BeforeExtra); ok {
			ind = li
		} else {
			ind += d.unit
		}
		obj = child
	}
	return obj, ind, i, nil
}

// nest wraps val in objects named by names, outermost first.
func nest(names []string, val any) any {
	for k := len(names) - 1; k >= 0; k-- {
		val = object{{names[k], val}}
	}
	return val
}

// set makes the member at path hold val, creating the objects on the way,
// and reports whether anything changed.
func (d *jsonDoc) set(path []string, val any) (changed bool, err error) {
	parent, ind, n, err := d.descend(path[:len(path)-1])
	if err != nil {
		return false, err
	}
	if n < len(path)-1 {
		d.noteClosing(path[:n], len(parent.Members) == 0, parent.AfterExtra)
		d.created(path, n+1, len(path)-1)
		return true, d.appendMember(parent, ind, path[n], nest(path[n+1:], val))
	}
	name := path[len(path)-1]
	j := memberIndex(parent, name)
	if j < 0 {
		d.noteClosing(path[:len(path)-1], len(parent.Members) == 0, parent.AfterExtra)
		return true, d.appendMember(parent, ind, name, val)
	}
	m := &parent.Members[j]
	if sameJSON(m.Value, val) {
		return false, nil
	}
	mind, ok := lineIndent(m.Name.BeforeExtra)
	if !ok {
		mind = ind + d.unit
	}
	if cur, isObj := m.Value.Value.(*hujson.Object); isObj {
		if entry, isEntry := val.(object); isEntry {
			before := string(m.Value.Pack())
			if err := d.mergeEntry(cur, mind, entry); err != nil {
				return false, err
			}
			return string(m.Value.Pack()) != before, nil
		}
	}
	v, err := d.render(val, mind, !ok)
	if err != nil {
		return false, err
	}
	m.Value.Value = v
	return true, nil
}

// mergeEntry brings an entry of ours that is there already (obj, its key
// line at indentation ind) up to date with entry, changing only what setup
// owns: the command, and "mcp" as the first argument. What the user added
// (more args, env, trust, ...) stays; a member of entry that obj lacks is
// added.
func (d *jsonDoc) mergeEntry(obj *hujson.Object, ind string, entry object) error {
	for _, f := range entry {
		j := memberIndex(obj, f.Key)
		if j < 0 {
			if err := d.appendMember(obj, ind, f.Key, f.Value); err != nil {
				return err
			}
			continue
		}
		v := &obj.Members[j].Value
		switch want := f.Value.(type) {
		case string: // "command": the binary
			if f.Key == "command" {
				v.Value = hujson.String(want)
			}
		case []string: // "args": ["mcp"], or opencode's "command": [binary, "mcp"]
			if f.Key != "command" && f.Key != "args" {
				continue
			}
			arr, ok := v.Value.(*hujson.Array)
			if !ok {
				rv, err := d.render(want, ind+d.unit, true)
				if err != nil {
					return err
				}
				v.Value = rv
				continue
			}
			k := 0
			if f.Key == "command" {
				if len(arr.Elements) == 0 {
					insertString(arr, 0, want[0])
				} else {
					arr.Elements[0].Value = hujson.String(want[0])
				}
				k = 1
			}
			if lit, ok := elementAt(arr, k).(hujson.Literal); !ok || lit.String() != "mcp" {
				insertString(arr, k, "mcp")
			}
		}
	}
	return nil
}

func elementAt(arr *hujson.Array, k int) hujson.ValueTrimmed {
	if k < len(arr.Elements) {
		return arr.Elements[k].Value
	}
	return nil
}

// insertString puts the string s at index k of arr, laid out like the
// element that was there (or the one before it).
func insertString(arr *hujson.Array, k int, s string) {
	e := hujson.Value{Value: hujson.String(s)}
	n := len(arr.Elements)
	switch {
	case k < n:
		e.BeforeExtra = arr.Elements[k].BeforeExtra
		if k+1 < n {
			arr.Elements[k].BeforeExtra = arr.Elements[k+1].BeforeExtra
		} else if !bytes.Contains(e.BeforeExtra, []byte("\n")) {
			arr.Elements[k].BeforeExtra = hujson.Extra(" ")
		}
	case n > 0:
		e.BeforeExtra = arr.Elements[n-1].BeforeExtra
		if !bytes.Contains(e.BeforeExtra, []byte("\n")) {
			e.BeforeExtra = hujson.Extra(" ")
		}
		if arr.Elements[n-1].AfterExtra != nil {
			e.AfterExtra = hujson.Extra{}
		}
	}
	arr.Elements = append(arr.Elements[:k], append([]hujson.Value{e}, arr.Elements[k:]...)...)
}

// appendMember adds name: val at the end of obj, whose key line is at
// indentation ind, laid out like its last member.
func (d *jsonDoc) appendMember(obj *hujson.Object, ind, name string, val any) error {
	before, mind, inline := d.placement(lastName(obj), ind, &obj.AfterExtra)
	v, err := d.render(val, mind, inline)
	if err != nil {
		return err
	}
	m := hujson.ObjectMember{
		Name:  hujson.Value{BeforeExtra: before, Value: hujson.String(name)},
		Value: hujson.Value{BeforeExtra: hujson.Extra(" "), Value: v},
	}
	if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
		m.Value.AfterExtra = hujson.Extra{} // the file ends lists with a comma: so does ours
	}
	obj.Members = append(obj.Members, m)
	return nil
}

func lastName(obj *hujson.Object) *hujson.Value {
	if n := len(obj.Members); n > 0 {
		return &obj.Members[n-1].Name
	}
	return nil
}

// placement says how a new last member or element goes: the extra before
// it, its indentation, and whether the composite is on one line. sibling
// is the current last one (nil: none); closing is the extra before the
// closing bracket, given a line of its own when the composite was empty.
func (d *jsonDoc) placement(sibling *hujson.Value, ind string, closing *hujson.Extra) (before hujson.Extra, mind string, inline bool) {
	if sibling != nil {
		if li, ok := lineIndent(sibling.BeforeExtra); ok {
			return hujson.Extra("\n" + li), li, false
		}
		return hujson.Extra(" "), "", true
	}
	if !bytes.Contains(*closing, []byte("\n")) {
		*closing = hujson.Extra("\n" + ind)
	}
	mind = ind + d.unit
	return hujson.Extra("\n" + mind), mind, false
}

// remove deletes the member at path, and then what tidy undoes, and
// reports whether anything changed.
func (d *jsonDoc) remove(path []string) bool {
	parent, ok := d.objectAt(path[:len(path)-1])
	if !ok {
		return false
	}
	j := memberIndex(parent, path[len(path)-1])
	if j < 0 {
		return false
	}
	deleteMember(parent, j)
	d.tidy()
	return true
}

func (d *jsonDoc) objectAt(path []string) (*hujson.Object, bool) {
	v := d.at(path)
	if v == nil {
		return nil, false
	}
	obj, ok := v.Value.(*hujson.Object)
	return obj, ok
}

func deleteMember(obj *hujson.Object, j int) {
	last := j == len(obj.Members)-1
	trailing := obj.Members[j].Value.AfterExtra != nil
	obj.Members = append(obj.Members[:j], obj.Members[j+1:]...)
	if last && len(obj.Members) > 0 {
		// The new last member ends the list as the removed one did.
		nl := &obj.Members[len(obj.Members)-1].Value
		if !trailing {
			nl.AfterExtra = nil
		} else if nl.AfterExtra == nil {
			nl.AfterExtra = hujson.Extra{}
		}
	}
}

// arrayAt returns the list at path, nil when there is none; an error when
// something else is there.
func (d *jsonDoc) arrayAt(path []string) (*hujson.Array, error) {
	parent, _, n, err := d.descend(path[:len(path)-1])
	if err != nil || n < len(path)-1 {
		return nil, err
	}
	j := memberIndex(parent, path[len(path)-1])
	if j < 0 {
		return nil, nil
	}
	arr, ok := parent.Members[j].Value.Value.(*hujson.Array)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", strings.Join(path, "."))
	}
	return arr, nil
}

// groupHooks is the "hooks" list of a hook group, nil when it has none.
func groupHooks(v *hujson.Value) *hujson.Array {
	hs := member(v, "hooks")
	if hs == nil {
		return nil
	}
	arr, _ := hs.Value.(*hujson.Array)
	return arr
}

// setHook makes the hook groups of the list at path hold entry as the one
// hook entry ours recognises: one of ours is updated where it is, in
// whatever group, and the user's hooks beside it in that group are kept;
// when there is none, group (holding entry) is appended. A second one of
// ours is dropped, with its group if that leaves the group empty. It
// reports whether anything changed.
func (d *jsonDoc) setHook(path []string, group, entry any, ours func(hujson.Value) bool) (bool, error) {
	arr, err := d.arrayAt(path)
	if err != nil {
		return false, err
	}
	if arr == nil {
		changed, err := d.set(path, []any{group})
		if err == nil {
			d.created(path, len(path), len(path)) // the list itself
		}
		return changed, err
	}
	found, updated := false, false
	dropped := eachHook(arr, ours, func(hs *hujson.Array, i int) bool {
		if found { // a second one of ours: drop it
			return true
		}
		found = true
		if sameJSON(hs.Elements[i], entry) {
			return false
		}
		// One line stays one line.
		ind, ok := lineIndent(hs.Elements[i].BeforeExtra)
		oneLine := !bytes.Contains(hujson.Value{Value: hs.Elements[i].Value}.Pack(), []byte("\n"))
		var v hujson.ValueTrimmed
		if v, err = d.render(entry, ind, !ok || oneLine); err == nil {
			hs.Elements[i].Value = v
			updated = true
		}
		return false
	})
	if err != nil {
		return false, err
	}
	if found {
		return updated || dropped, nil
	}
	return true, d.appendElement(path, arr, group)
}

// appendElement adds val at the end of arr, the list at path, laid out
// like its last element.
func (d *jsonDoc) appendElement(path []string, arr *hujson.Array, val any) error {
	parent, ind, _, err := d.descend(path[:len(path)-1])
	if err != nil {
		return err
	}
	if li, ok := lineIndent(parent.Members[memberIndex(parent, path[len(path)-1])].Name.BeforeExtra); ok {
		ind = li
	} else {
		ind += d.unit
	}
	var sib *hujson.Value
	if n := len(arr.Elements); n > 0 {
		sib = &arr.Elements[n-1]
	}
	d.noteClosing(path, sib == nil, arr.AfterExtra)
	before, mind, inline := d.placement(sib, ind, &arr.AfterExtra)
	v, err := d.render(val, mind, inline)
	if err != nil {
		return err
	}
	e := hujson.Value{BeforeExtra: before, Value: v}
	if sib != nil && sib.AfterExtra != nil {
		e.AfterExtra = hujson.Extra{}
	}
	arr.Elements = append(arr.Elements, e)
	return nil
}

// removeHooks deletes the hook entries ours recognises from the hook
// groups of the list at path, and only them: a group goes only when this
// left it empty, the list and its objects as tidy says.
func (d *jsonDoc) removeHooks(path []string, ours func(hujson.Value) bool) bool {
	arr, err := d.arrayAt(path)
	if err != nil || arr == nil {
		return false
	}
	changed := eachHook(arr, ours, func(*hujson.Array, int) bool { return true })
	if changed {
		d.tidy()
	}
	return changed
}

// eachHook calls f on each hook entry ours recognises in the hook groups
// of arr, in order; f reports whether to drop the entry. A group whose
// hooks list dropping left empty (no comment in it either) goes. It
// reports whether anything was dropped.
func eachHook(arr *hujson.Array, ours func(hujson.Value) bool, f func(hs *hujson.Array, i int) (drop bool)) bool {
	changed := false
	for g := 0; g < len(arr.Elements); g++ {
		hs := groupHooks(&arr.Elements[g])
		if hs == nil {
			continue
		}
		dropped := false
		for i := 0; i < len(hs.Elements); i++ {
			if ours(hs.Elements[i]) && f(hs, i) {
				deleteElement(hs, i)
				i--
				dropped = true
			}
		}
		if dropped && len(hs.Elements) == 0 && len(bytes.TrimSpace(hs.AfterExtra)) == 0 {
			deleteElement(arr, g)
			g--
		}
		changed = changed || dropped
	}
	return changed
}

func deleteElement(arr *hujson.Array, j int) {
	last := j == len(arr.Elements)-1
	trailing := arr.Elements[j].AfterExtra != nil
	arr.Elements = append(arr.Elements[:j], arr.Elements[j+1:]...)
	if last && len(arr.Elements) > 0 {
		nl := &arr.Elements[len(arr.Elements)-1]
		if !trailing {
			nl.AfterExtra = nil
		} else if nl.AfterExtra == nil {
			nl.AfterExtra = hujson.Extra{}
		}
	}
}

// object is a JSON object that keeps its keys in the order given, so that
// what setup writes reads like the agents' own documentation.
type object []field

type field struct {
	Key   string
	Value any
}

func (o object) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, err := json.Marshal(f.Key)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.Value)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}
