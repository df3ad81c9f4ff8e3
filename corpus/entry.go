package corpus

// Controlled field types. Their values come from the vocabulary (data/vocab.yaml),
// not from Go constants, so adding a value is a data change; Check rejects
// anything outside the vocabulary.
type (
	Category          string
	IsRL              string
	RewardType        string
	CreditGranularity string
	OrchestrationForm string
	Scenario          string
	Core              string
	Verified          string
	Stage             string
)

// paperColumns are the 18 columns of papers.csv, in their required order.
var paperColumns = [...]string{
	"key", "title", "first_author", "affiliation", "year", "arxiv_id", "venue", "url",
	"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form",
	"scenario", "is_core", "one_liner", "verified", "notes",
}

// excludedColumns are the 9 columns of excluded.csv, in their required order.
var excludedColumns = [...]string{
	"record_id", "source", "query_family", "screening_label", "identifier", "url",
	"date_screened", "stage", "exclusion_reason",
}

// PaperColumns returns the columns of papers.csv in order.
func PaperColumns() []string { return append([]string(nil), paperColumns[:]...) }

// ExcludedColumns returns the columns of excluded.csv in order.
func ExcludedColumns() []string { return append([]string(nil), excludedColumns[:]...) }

// Entry is one retained paper, a row of papers.csv. Fields are read as text
// (gocsv would turn an empty year into 0 silently); Year holds the checked
// number and URLs the split url column.
type Entry struct {
	Key               string            `csv:"key" json:"key"`
	Title             string            `csv:"title" json:"title"`
	FirstAuthor       string            `csv:"first_author" json:"first_author"`
	Affiliation       string            `csv:"affiliation" json:"affiliation"`
	YearText          string            `csv:"year" json:"-"`
	ArxivID           string            `csv:"arxiv_id" json:"arxiv_id"`
	Venue             string            `csv:"venue" json:"venue"`
	URL               string            `csv:"url" json:"-"`
	Category          Category          `csv:"category" json:"category"`
	IsRL              IsRL              `csv:"is_rl" json:"is_rl"`
	RewardType        RewardType        `csv:"reward_type" json:"reward_type"`
	CreditGranularity CreditGranularity `csv:"credit_granularity" json:"credit_granularity"`
	OrchestrationForm OrchestrationForm `csv:"orchestration_form" json:"orchestration_form"`
	Scenario          Scenario          `csv:"scenario" json:"scenario"`
	IsCore            Core              `csv:"is_core" json:"is_core"`
	OneLiner          string            `csv:"one_liner" json:"one_liner"`
	Verified          Verified          `csv:"verified" json:"verified"`
	Notes             string            `csv:"notes" json:"notes"`

	Year int      `csv:"-" json:"year"`
	URLs []string `csv:"-" json:"urls"`

	// Line is the line on which the record starts; pos holds the start of
	// every field by column index of paperColumns.
	Line int `csv:"-" json:"line"`
	file string
	pos  [len(paperColumns)]fieldPos
}

// Exclusion is one screened-but-excluded record, a row of excluded.csv.
type Exclusion struct {
	RecordID        string `csv:"record_id" json:"record_id"`
	Source          string `csv:"source" json:"source"`
	QueryFamily     string `csv:"query_family" json:"query_family"`
	ScreeningLabel  string `csv:"screening_label" json:"screening_label"`
	Identifier      string `csv:"identifier" json:"identifier"`
	URL             string `csv:"url" json:"url"`
	DateScreened    string `csv:"date_screened" json:"date_screened"`
	Stage           Stage  `csv:"stage" json:"stage"`
	ExclusionReason string `csv:"exclusion_reason" json:"exclusion_reason"`

	Line int `csv:"-" json:"line"`
	file string
	pos  [len(excludedColumns)]fieldPos
}

// Audit is one row of spotcheck.csv: a second reader's tags for a retained
// entry next to the tags it had when audited.
type Audit struct {
	Key                  string `csv:"key" json:"key"`
	OrigCategory         string `csv:"orig_category" json:"orig_category"`
	OrigIsRL             string `csv:"orig_is_rl" json:"orig_is_rl"`
	OrigRewardType       string `csv:"orig_reward_type" json:"orig_reward_type"`
	OrigCredit           string `csv:"orig_credit_granularity" json:"orig_credit_granularity"`
	OrigOrchestration    string `csv:"orig_orchestration_form" json:"orig_orchestration_form"`
	AnnCategory          string `csv:"ann_category" json:"ann_category"`
	AnnIsRL              string `csv:"ann_is_rl" json:"ann_is_rl"`
	AnnRewardType        string `csv:"ann_reward_type" json:"ann_reward_type"`
	AnnCredit            string `csv:"ann_credit_granularity" json:"ann_credit_granularity"`
	AnnOrchestration     string `csv:"ann_orchestration_form" json:"ann_orchestration_form"`
	StrictExplicitCredit string `csv:"strict_explicit_credit" json:"strict_explicit_credit"`
	AgreementNote        string `csv:"agreement_note" json:"agreement_note"`
	AnnotatorNote        string `csv:"annotator_note" json:"annotator_note"`

	Line int `csv:"-" json:"line"`
	file string
	// pos holds field starts by column name, because spotcheck.csv's column
	// set is not fixed by the survey.
	pos map[string]fieldPos
}

// AuditedFields are the papers.csv columns the spot-check audit covers, in
// order; for each, Audit holds the original and the second reader's tag.
func AuditedFields() []string {
	return []string{"category", "is_rl", "reward_type", "credit_granularity", "orchestration_form"}
}

// Orig returns the tag the entry had when audited, for one of AuditedFields.
func (a *Audit) Orig(field string) string {
	switch field {
	case "category":
		return a.OrigCategory
	case "is_rl":
		return a.OrigIsRL
	case "reward_type":
		return a.OrigRewardType
	case "credit_granularity":
		return a.OrigCredit
	case "orchestration_form":
		return a.OrigOrchestration
	}
	return ""
}

// Annotated returns the second reader's tag for one of AuditedFields.
func (a *Audit) Annotated(field string) string {
	switch field {
	case "category":
		return a.AnnCategory
	case "is_rl":
		return a.AnnIsRL
	case "reward_type":
		return a.AnnRewardType
	case "credit_granularity":
		return a.AnnCredit
	case "orchestration_form":
		return a.AnnOrchestration
	}
	return ""
}

// Value returns the text of a papers.csv column by name ("" for unknown
// names), so that counting and checking can treat columns uniformly.
func (e *Entry) Value(column string) string {
	switch column {
	case "key":
		return e.Key
	case "title":
		return e.Title
	case "first_author":
		return e.FirstAuthor
	case "affiliation":
		return e.Affiliation
	case "year":
		return e.YearText
	case "arxiv_id":
		return e.ArxivID
	case "venue":
		return e.Venue
	case "url":
		return e.URL
	case "category":
		return string(e.Category)
	case "is_rl":
		return string(e.IsRL)
	case "reward_type":
		return string(e.RewardType)
	case "credit_granularity":
		return string(e.CreditGranularity)
	case "orchestration_form":
		return string(e.OrchestrationForm)
	case "scenario":
		return string(e.Scenario)
	case "is_core":
		return string(e.IsCore)
	case "one_liner":
		return e.OneLiner
	case "verified":
		return string(e.Verified)
	case "notes":
		return e.Notes
	}
	return ""
}

// Value returns the text of an excluded.csv column by name.
func (x *Exclusion) Value(column string) string {
	switch column {
	case "record_id":
		return x.RecordID
	case "source":
		return x.Source
	case "query_family":
		return x.QueryFamily
	case "screening_label":
		return x.ScreeningLabel
	case "identifier":
		return x.Identifier
	case "url":
		return x.URL
	case "date_screened":
		return x.DateScreened
	case "stage":
		return string(x.Stage)
	case "exclusion_reason":
		return x.ExclusionReason
	}
	return ""
}

// fieldPos is where a field starts in its file. int32 keeps a million-row
// corpus's positions compact.
type fieldPos struct{ line, col int32 }

func columnIndex(cols []string, name string) int {
	for i, c := range cols {
		if c == name {
			return i
		}
	}
	return -1
}

// Pos returns where a column of the entry starts; for an unknown column or
// a field missing from a short record, the start of the record.
func (e *Entry) Pos(column string) Pos {
	if i := columnIndex(paperColumns[:], column); i >= 0 && e.pos[i].line > 0 {
		return Pos{File: e.file, Line: int(e.pos[i].line), Col: int(e.pos[i].col)}
	}
	return Pos{File: e.file, Line: e.Line, Col: 1}
}

// Pos returns where a column of the record starts.
func (x *Exclusion) Pos(column string) Pos {
	if i := columnIndex(excludedColumns[:], column); i >= 0 && x.pos[i].line > 0 {
		return Pos{File: x.file, Line: int(x.pos[i].line), Col: int(x.pos[i].col)}
	}
	return Pos{File: x.file, Line: x.Line, Col: 1}
}

// Pos returns where a column of the audit row starts.
func (a *Audit) Pos(column string) Pos {
	if p, ok := a.pos[column]; ok {
		return Pos{File: a.file, Line: int(p.line), Col: int(p.col)}
	}
	return Pos{File: a.file, Line: a.Line, Col: 1}
}
