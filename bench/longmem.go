package bench

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The long-memory corpus imitates long-term conversational memory: a few
// long dialogs between two friends, each split into many dated sessions
// (one conversation file a session), with facts planted in one session
// and asked about later in other words. Chit-chat that reuses the same
// names, places and everyday words runs through every session, so a
// question's words other than the fact's own find many sessions.

// LongMemOptions configure the generated long-memory corpus.
type LongMemOptions struct {
	Seed     uint64 // different seeds give different people, facts and sessions
	Dialogs  int    // default 4
	Sessions int    // per dialog, default 12
	Facts    int    // planted per dialog, default 16
	Half     string // written into every question: "tune" or "held"
	// Authors writes each speaker's name in the message's "author" field
	// instead of before its text ("Kofi: …"): how an export of a chat
	// between people names them.
	Authors bool
}

func (o *LongMemOptions) defaults() {
	if o.Dialogs == 0 {
		o.Dialogs = 4
	}
	if o.Sessions == 0 {
		o.Sessions = 12
	}
	if o.Facts == 0 {
		o.Facts = 16
	}
}

// factTemplate is a statement planted in a session and its paraphrased
// questions. {P} is the speaker, {X} and {Y} the fact's own words.
type factTemplate struct {
	say string
	ask []string
	xs  []string
	ys  []string
}

var factTemplates = []factTemplate{
	{"Guess what, I finally adopted a {X} from the shelter, we named it {Y}.", []string{"What is the name of the {X} {P} adopted?", "Which pet did {P} bring home from the shelter?"},
		[]string{"beagle", "tabby cat", "greyhound", "parrot", "rabbit"}, []string{"Biscuit", "Pepper", "Mochi", "Rocket", "Juniper"}},
	{"I signed up for {X} lessons on Tuesdays at the {Y} community center.", []string{"What classes does {P} take on Tuesdays?", "Where does {P} go for {X} lessons?"},
		[]string{"pottery", "salsa", "cello", "fencing", "watercolor"}, []string{"Riverside", "Oakmont", "Harbor", "Maple", "Northgate"}},
	{"My sister {Y} just moved to {X} for a new job at a hospital.", []string{"Which city did {P}'s sister relocate to?", "Where does {Y} live now?"},
		[]string{"Lisbon", "Montreal", "Osaka", "Edinburgh", "Denver"}, []string{"Clara", "Naomi", "Ingrid", "Sofia", "Tamsin"}},
	{"We spent the long weekend hiking around {X}, the view from {Y} was unreal.", []string{"Where did {P} go hiking over the long weekend?", "Which viewpoint impressed {P} on the trip to {X}?"},
		[]string{"Yosemite", "the Dolomites", "Snowdonia", "Banff", "Patagonia"}, []string{"Glacier Point", "Seceda ridge", "Tryfan", "Moraine Lake", "Fitz Roy"}},
	{"I've been reading {X} by {Y}, I can't put it down.", []string{"What book has {P} been reading lately?", "Which author wrote the book {P} couldn't put down?"},
		[]string{"The Overstory", "Piranesi", "Middlemarch", "Station Eleven", "Dune"}, []string{"Richard Powers", "Susanna Clarke", "George Eliot", "Emily St. John Mandel", "Frank Herbert"}},
	{"I started a sourdough habit, I bake a {X} loaf every {Y} morning now.", []string{"What kind of bread does {P} bake?", "On which day does {P} do the baking?"},
		[]string{"rye", "spelt", "walnut", "olive", "seeded"}, []string{"Sunday", "Saturday", "Friday", "Wednesday", "Monday"}},
	{"My new role is {X} at {Y}, I start in two weeks.", []string{"What job did {P} accept?", "Which company hired {P}?"},
		[]string{"data engineer", "product designer", "nurse practitioner", "sous chef", "site reliability engineer"}, []string{"Fernhill Labs", "Quillon", "Brightwater", "Castell Foods", "Vantor"}},
	{"I ran the {X} half marathon last month and finished in {Y}.", []string{"Which race did {P} run recently?", "What was {P}'s finishing time in the half marathon?"},
		[]string{"Brooklyn", "Lakeshore", "Bristol", "Valencia", "Copenhagen"}, []string{"one fifty-two", "two oh five", "one forty-one", "one fifty-eight", "two eleven"}},
	{"My grandmother taught me her {X} recipe, the secret is a pinch of {Y}.", []string{"Which dish did {P} learn from grandma?", "What is the secret ingredient in the family recipe?"},
		[]string{"goulash", "pierogi", "lasagna", "jollof rice", "biryani"}, []string{"smoked paprika", "nutmeg", "fennel seed", "cardamom", "allspice"}},
	{"We're planning a trip to {X} in {Y} for our anniversary.", []string{"Where are {P} and the partner travelling for the anniversary?", "In which month is the anniversary trip?"},
		[]string{"Kyoto", "Santorini", "Marrakech", "Reykjavik", "Cartagena"}, []string{"October", "March", "June", "September", "April"}},
	{"I bought a used {X}, a {Y}, to get around the city.", []string{"What vehicle did {P} buy?", "Which model does {P} ride around town?"},
		[]string{"scooter", "cargo bike", "hatchback", "road bike", "motorcycle"}, []string{"Vespa Primavera", "Urban Arrow", "Honda Fit", "Cannondale Synapse", "Triumph Bonneville"}},
	{"The doctor said my knee problem is {X}, so I'm doing {Y} twice a week.", []string{"What did the doctor find wrong with {P}'s knee?", "What therapy is {P} doing for the injury?"},
		[]string{"tendinitis", "a torn meniscus", "bursitis", "runner's knee", "a sprained ligament"}, []string{"physiotherapy", "aqua jogging", "pilates", "cycling rehab", "yoga"}},
	{"I've been learning {X} on an app, my streak is at {Y} days.", []string{"Which language is {P} studying?", "How long is {P}'s learning streak?"},
		[]string{"Portuguese", "Korean", "Italian", "Swahili", "Dutch"}, []string{"ninety", "forty", "two hundred", "sixty-three", "one hundred twelve"}},
	{"We finally painted the living room {X} and hung a {Y} print above the sofa.", []string{"What color is {P}'s living room now?", "What artwork hangs over the couch?"},
		[]string{"sage green", "terracotta", "navy blue", "mustard yellow", "dusty pink"}, []string{"Hokusai", "Matisse", "Klimt", "Hopper", "Rothko"}},
	{"I volunteer at the {X} on weekends, mostly helping with {Y}.", []string{"Where does {P} volunteer?", "What does {P} help with when volunteering?"},
		[]string{"food bank", "animal rescue", "public library", "community garden", "youth shelter"}, []string{"sorting donations", "walking dogs", "reading hour", "composting", "tutoring math"}},
	{"For my birthday my friends got me a {X} and tickets to see {Y}.", []string{"What gift did {P} receive for the birthday?", "Which concert tickets did {P} get?"},
		[]string{"record player", "espresso machine", "drone", "telescope", "kayak"}, []string{"Radiohead", "Adele", "Khruangbin", "Bon Iver", "Fleetwood Mac"}},
	{"My son {Y} joined the school {X} team and he loves it.", []string{"What team did {P}'s son join?", "Which child plays on the school team?"},
		[]string{"chess", "robotics", "swim", "debate", "soccer"}, []string{"Eli", "Mateo", "Oscar", "Theo", "Rafael"}},
	{"I quit coffee and switched to {X} tea, I get it from a shop called {Y}.", []string{"What does {P} drink instead of coffee?", "Where does {P} buy tea?"},
		[]string{"oolong", "rooibos", "matcha", "chai", "jasmine"}, []string{"Leaf and Kettle", "Steep Street", "Camellia House", "The Tea Drawer", "Silk Road Teas"}},
	{"Our band is called {Y} and we play {X} covers at a bar downtown.", []string{"What music does {P}'s band play?", "What is the name of {P}'s band?"},
		[]string{"jazz", "punk", "bluegrass", "funk", "reggae"}, []string{"The Loose Threads", "Static Orchard", "Velvet Margin", "Paper Lanterns", "Blue Ferns"}},
	{"I'm growing {X} on the balcony this year, and the {Y} are already flowering.", []string{"What is {P} growing on the balcony?", "Which plants are flowering at {P}'s place?"},
		[]string{"tomatoes", "chili peppers", "strawberries", "basil", "zucchini"}, []string{"marigolds", "nasturtiums", "sunflowers", "lavender", "petunias"}},
}

// chit-chat that mentions everyday things; {P} and {Q} are the speakers.
var chitchat = []string{
	"How was your week, {Q}? Mine was busy but good.",
	"Work has been hectic, we have a big deadline coming up.",
	"I finally got some sleep this weekend, it made such a difference.",
	"The weather has been all over the place lately, rain then sun.",
	"Did you see the game last night? What an ending.",
	"I tried a new restaurant downtown, the noodles were great.",
	"My family came over for dinner on Sunday, it was loud and fun.",
	"I've been meaning to call you, {Q}, things got away from me.",
	"We watched a documentary about the ocean, it was beautiful.",
	"I'm thinking about taking a short trip somewhere next month.",
	"My phone broke so I'm using an old one for now.",
	"The neighbours are renovating and the noise starts at seven.",
	"I went to the market and bought way too many vegetables.",
	"Honestly I just want a quiet weekend at home with a book.",
	"That sounds lovely, {P}. You deserve a break.",
	"Haha, I know the feeling. Let's catch up properly soon.",
	"I'm proud of you for sticking with it.",
	"Tell me more about that, it sounds interesting.",
	"We should plan something together when things calm down.",
	"My manager asked me to lead a new project, a bit nervous.",
	"I started going to the gym in the mornings before work.",
	"The kids have a school trip next week, so the house will be quiet.",
	"I cleaned out the garage and found my old guitar.",
	"Traffic was terrible today, I was late for a meeting.",
	"I've been cooking more at home to save money.",
	"We had friends over and played board games until midnight.",
	"I'm so tired of winter, I can't wait for spring.",
	"Thanks for asking, {P}, I'm doing better now.",
	"Did I tell you my cousin is getting married in the summer?",
	"I want to learn something new this year, maybe a language or an instrument.",
}

// distractor mentions reuse a fact's category words in other sessions, so
// the category alone does not find the session.
var distractors = []string{
	"My coworker keeps talking about getting a pet, she can't decide.",
	"I saw a poster for dance lessons at the library, maybe someday.",
	"A friend of mine is thinking of moving abroad for work.",
	"We might go hiking again when the weather gets better.",
	"I have a huge pile of books I still want to read.",
	"The bakery near us sells amazing bread, I rarely bake myself.",
	"Job hunting is exhausting, I'm glad that's behind my friend.",
	"I'm thinking about running a race next year, nothing long though.",
	"My mom's recipes are all in her head, nobody has written them down.",
	"An anniversary dinner is the minimum, a trip would be nicer.",
	"Parking in the city is impossible, I should get a bike.",
	"My back has been sore, maybe I need to see a doctor.",
	"Apps for learning languages never stick for me.",
	"We keep saying we'll repaint the house, but never do.",
	"Volunteering sounds rewarding, I should look into it.",
	"Birthdays at our place are small, just cake and family.",
	"The school has so many clubs and teams these days.",
	"I drink too much coffee, I should switch to tea.",
	"I used to play in a band in college, good times.",
	"Our balcony gets too much wind for plants.",
}

var firstNames = strings.Fields("Alex Jordan Priya Mateus Hana Kofi Lena Ravi Sara Tomas Yuki Amara Felix Noor Ines Caleb")

// GenerateLongMem writes the long-memory corpus under dir (portable JSON, one
// file a session) and returns its questions. The same options always give
// the same files and questions.
func GenerateLongMem(dir string, o LongMemOptions) ([]Question, error) {
	o.defaults()
	r := rand.New(rand.NewPCG(o.Seed, o.Seed^0x5851f42d4c957f2d))
	var qs []Question
	for d := range o.Dialogs {
		p := firstNames[r.IntN(len(firstNames))]
		q := firstNames[r.IntN(len(firstNames))]
		for q == p {
			q = firstNames[r.IntN(len(firstNames))]
		}
		project := fmt.Sprintf("longmem-%d-%02d", o.Seed%1000, d)
		start := time.Date(2023, time.Month(1+r.IntN(12)), 1+r.IntN(27), 18, 0, 0, 0, time.UTC)
		// Each session holds at most one or two planted facts.
		facts := r.Perm(len(factTemplates))[:min(o.Facts, len(factTemplates))]
		plant := map[int][]int{} // session → fact template indexes
		for i, f := range facts {
			s := (i*o.Sessions/len(facts) + r.IntN(2)) % o.Sessions
			plant[s] = append(plant[s], f)
		}
		for s := range o.Sessions {
			id := fmt.Sprintf("lm%d-d%02d-s%02d", o.Seed%1000, d, s)
			date := start.Add(time.Duration(s*(5+r.IntN(20))) * 24 * time.Hour)
			var msgs []map[string]string
			fill := func(t string) string {
				return strings.NewReplacer("{P}", p, "{Q}", q).Replace(t)
			}
			n := 14 + r.IntN(14)
			at := map[int]int{} // message index → fact
			for _, f := range plant[s] {
				at[2*r.IntN(n/2)] = f // said by the first speaker
			}
			for m := range n {
				var text string
				if f, ok := at[m]; ok {
					ft := factTemplates[f]
					x, y := ft.xs[(int(o.Seed)+d)%len(ft.xs)], ft.ys[(int(o.Seed)+d*3)%len(ft.ys)]
					fr := strings.NewReplacer("{P}", p, "{X}", x, "{Y}", y)
					text = fr.Replace(ft.say)
					for _, a := range ft.ask {
						qs = append(qs, Question{Q: fr.Replace(a), IDs: []string{id}, Project: project, Half: o.Half})
					}
				} else if r.IntN(6) == 0 {
					text = distractors[r.IntN(len(distractors))]
				} else {
					text = fill(chitchat[r.IntN(len(chitchat))])
				}
				speaker := p
				if m%2 == 1 {
					speaker = q
				}
				role := map[bool]string{true: "user", false: "assistant"}[m%2 == 0]
				mm := map[string]string{
					"role": role, "content": speaker + ": " + text,
					"timestamp": date.Add(time.Duration(m) * time.Minute).Format("2006-01-02T15:04:05"),
				}
				if o.Authors {
					mm["content"], mm["author"] = text, speaker
				}
				msgs = append(msgs, mm)
			}
			title := fmt.Sprintf("%s and %s, session %d", p, q, s+1)
			if err := writeChatSession(filepath.Join(dir, "conversations"), id, title, project, "longmem", date, msgs); err != nil {
				return nil, fmt.Errorf("longmem: %s: %w", id, err)
			}
		}
	}
	return qs, nil
}

// writeChatSession writes one session of a chat between two people as the
// portable-format file dir/id.json, the chat as its project and tag as its
// tag: the long-memory corpus's sessions and LoCoMo's.
func writeChatSession(dir, id, title, project, tag string, date time.Time, msgs []map[string]string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeJSON(filepath.Join(dir, id+".json"), portableDoc(id, title, project, tag, date, msgs))
}
