package indexer

import (
	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"
	bsearch "github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"
)

// FormatVersion is the version of the index's mapping and document layout.
// Bump it whenever either changes: an index of another version is rebuilt.
// 10: BM25 scoring. 11: a message's author, when a person's name. 12: a
// message's context (its neighbours' words). 13: rationales stored without
// their own "because" (clients no longer strip it when showing them). 14:
// attachment names and artifact paths with the words run together in them
// ("ZebraMigrationPlan.pdf (Zebra Migration Plan)"). 15: a colon between
// letters is a word break ("user:alice" is user and alice). 16: "C++", "C#",
// "F#" and ".NET" are words of their own, and accents are folded ("café" is
// cafe). 17: camelCase words in text are also their parts and runs of parts
// ("UserProfileCard" is user, profile, card, userprofile, profilecard). 18:
// a blank line parts the words either side for phrases, and the parts of a
// conversation's own document (title, summaries, topics) are paragraphs;
// a camelCase word's parts and runs stand at the word's own place. 19: the
// words of a redaction marker ("[redacted: password]") are left out. 20:
// nor do they give concepts.
const FormatVersion = 20

// bm25B is how much BM25 normalises a match by the length of its field
// (Bleve's default is 0.75). Chat turns are short and of like length: at
// 0.75 a six-word "Marta: Trying! How's your work?" outranked the answer on
// a name and one common word, the length norm weighing each of its words
// twice those of a thirty-word message. 0.05 to 0.15 did alike on the
// recall set's tune halves (docs/RECALL.md); 0 let long tool output match
// by bulk.
const bm25B = 0.1

// Bleve reads BM25's b from a package variable, not from the mapping: set
// once, before any index is opened or searched, for the process.
func init() { bsearch.BM25_b = bm25B }

// Document kinds, the value of the "type" field.
const (
	KindConversation = "conversation"
	KindMessage      = "message"
	KindTopic        = "topic"
	KindDecision     = "decision"
)

// Kinds lists every document kind.
var Kinds = []string{KindConversation, KindMessage, KindTopic, KindDecision}

// Field names shared by the indexer and the query package.
const (
	FieldType           = "type"
	FieldConversationID = "conversation_id"
	FieldSource         = "source"
	FieldProject        = "project"
	FieldFile           = "file"
	FieldDate           = "date"
	FieldTitle          = "title"
	FieldTopics         = "topics"
	FieldTags           = "tags"
	FieldModel          = "model"
	FieldMessages       = "messages"
	FieldRole           = "role"
	FieldContent        = "content"
	FieldMessageIndex   = "message_index"
	FieldHidden         = "hidden"
	FieldTools          = "tools"
	FieldName           = "name"
	FieldTopicKey       = "topic_key" // a topic's name, lower-cased, exact: for counting topics
	FieldOrigin         = "origin"
	FieldDecision       = "decision"
	FieldRationale      = "rationale"
	FieldConcepts       = "concepts" // a message's nouns' broader words (ConceptAnalyzerName)
	FieldAuthor         = "author"   // who wrote a message, when the format names a person
	FieldContext        = "context"  // the start of the spoken messages either side of a message
)

// Every kind of document puts all of its searchable text into content (a
// conversation its title, summaries, topics and side text; a topic its name;
// a decision its text and rationale), so one term lookup covers every kind.
// The kind-specific fields serve field:value queries and display.

// newMapping builds the explicit mapping: no dynamic fields, no _all field
// (queries name their fields, so every text field is indexed once, not
// twice), English analysis with stemming for text (TextAnalyzerName), exact keywords for
// filters and facets, datetimes for dates.
func newMapping() *mapping.IndexMappingImpl {
	im := bleve.NewIndexMapping()
	im.ScoringModel = bindex.BM25Scoring
	im.TypeField = FieldType
	im.DefaultType = "unknown"
	im.DefaultAnalyzer = TextAnalyzerName
	im.IndexDynamic = false
	im.StoreDynamic = false
	im.DocValuesDynamic = false
	im.DefaultMapping = bleve.NewDocumentDisabledMapping()

	// text is searchable, stored and has term vectors: phrase queries and the
	// highlighter need positions.
	text := func() *mapping.FieldMapping {
		f := bleve.NewTextFieldMapping()
		f.Analyzer = TextAnalyzerName
		f.Store = true
		f.IncludeTermVectors = true
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	// kw is an exact keyword, stored for display; facet adds doc values,
	// which only the fields faceted or sorted on need (type, source,
	// project, role, conversation_id, topic_key; date below): the others are
	// filters, and doc values would be written for every document that
	// has one.
	kw := func(store bool) *mapping.FieldMapping {
		f := bleve.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = store
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	facet := func() *mapping.FieldMapping {
		f := kw(true)
		f.DocValues = true
		return f
	}
	date := func() *mapping.FieldMapping {
		f := bleve.NewDateTimeFieldMapping()
		f.Store = true
		f.IncludeInAll = false
		f.DocValues = true
		return f
	}
	// stored numbers are shown, never searched: no index terms.
	num := func() *mapping.FieldMapping {
		f := bleve.NewNumericFieldMapping()
		f.Index = false
		f.Store = true
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}

	// Every kind carries what filters and facets need; the file is on the
	// conversation document only (hits take it from there).
	common := func(dm *mapping.DocumentMapping) {
		dm.AddFieldMappingsAt(FieldType, facet())
		dm.AddFieldMappingsAt(FieldConversationID, facet())
		dm.AddFieldMappingsAt(FieldSource, facet())
		dm.AddFieldMappingsAt(FieldProject, facet())
		dm.AddFieldMappingsAt(FieldDate, date())
	}

	conv := bleve.NewDocumentStaticMapping()
	common(conv)
	conv.AddFieldMappingsAt(FieldFile, kw(true))
	conv.AddFieldMappingsAt(FieldContent, text())
	conv.AddFieldMappingsAt(FieldTitle, text())
	conv.AddFieldMappingsAt(FieldTopics, text())
	conv.AddFieldMappingsAt(FieldTags, kw(true))
	conv.AddFieldMappingsAt(FieldModel, kw(true))
	conv.AddFieldMappingsAt(FieldMessages, num())
	im.AddDocumentMapping(KindConversation, conv)

	msg := bleve.NewDocumentStaticMapping()
	common(msg)
	msg.AddFieldMappingsAt(FieldRole, facet())
	msg.AddFieldMappingsAt(FieldContent, text())
	msg.AddFieldMappingsAt(FieldMessageIndex, num())
	// concepts are only looked up by term, never shown or matched as a
	// phrase: no stored value, no positions.
	concepts := text()
	concepts.Analyzer = ConceptAnalyzerName
	concepts.Store = false
	concepts.IncludeTermVectors = false
	msg.AddFieldMappingsAt(FieldConcepts, concepts)
	// context is looked up by term only, like concepts.
	context := text()
	context.Store = false
	context.IncludeTermVectors = false
	msg.AddFieldMappingsAt(FieldContext, context)
	msg.AddFieldMappingsAt(FieldHidden, kw(true))
	msg.AddFieldMappingsAt(FieldAuthor, kw(true))
	msg.AddFieldMappingsAt(FieldTools, kw(true))
	msg.AddFieldMappingsAt(FieldModel, kw(true))
	im.AddDocumentMapping(KindMessage, msg)

	topic := bleve.NewDocumentStaticMapping()
	common(topic)
	topic.AddFieldMappingsAt(FieldContent, text())
	topic.AddFieldMappingsAt(FieldName, text())
	topic.AddFieldMappingsAt(FieldTopicKey, facet())
	topic.AddFieldMappingsAt(FieldOrigin, kw(true))
	im.AddDocumentMapping(KindTopic, topic)

	dec := bleve.NewDocumentStaticMapping()
	common(dec)
	dec.AddFieldMappingsAt(FieldContent, text())
	dec.AddFieldMappingsAt(FieldDecision, text())
	dec.AddFieldMappingsAt(FieldRationale, text())
	dec.AddFieldMappingsAt(FieldMessageIndex, num())
	dec.AddFieldMappingsAt(FieldOrigin, kw(true))
	im.AddDocumentMapping(KindDecision, dec)

	return im
}
