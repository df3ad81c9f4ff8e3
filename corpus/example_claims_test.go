package corpus_test

import (
	"fmt"

	"github.com/masrl/masrl/corpus"
)

// ExampleVerifyClaims checks two claims against a one-row pool: the count
// holds, the Table 16-style row records a known deviation.
func ExampleVerifyClaims() {
	v, _ := corpus.DefaultVocabulary()
	c, _ := corpus.ParsePapers("papers.csv", []byte(
		"key,title,first_author,affiliation,year,arxiv_id,venue,url,category,is_rl,reward_type,credit_granularity,orchestration_form,scenario,is_core,one_liner,verified,notes\n"+
			"coma,COMA,\"Foerster, Jakob\",Oxford,2018,,AAAI,https://example.org/coma,classical_marl,yes,shared,agent,centralized,general,core,Counterfactual PG,yes,\n"))
	claims, err := corpus.ParseClaims("claims.yaml", []byte(`
claims:
  - {id: agents, kind: count, field: credit_granularity, value: agent, expect: 1, description: "agent-level rows", source: "Table 1"}
  - id: coma-row
    kind: tags
    key: coma
    expect: {is_rl: "yes", is_core: supporting}
    description: "COMA stays supp"
    source: "Table 16 caption"
    acknowledged: {reason: "the CSV is authoritative", csv: {is_core: core}}
`), v)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range corpus.VerifyClaims(c, v, claims) {
		fmt.Printf("%s: %s (paper %s, CSV %s) %v\n", r.ID, r.Status, r.Expected, r.Actual, r.Keys)
	}
	// Output:
	// agents: holds (paper 1, CSV 1) [coma]
	// coma-row: acknowledged (paper is_rl=yes, is_core=supporting, CSV is_rl=yes, is_core=core) [coma]
}
