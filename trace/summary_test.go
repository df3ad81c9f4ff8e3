package trace

import (
	"testing"
)

func TestSummaryMeasuresAreReportMembers(t *testing.T) {
	for _, m := range SummaryMeasures() {
		if !IsMeasure(m.Name) {
			t.Errorf("summary measure %q is not a member of Report", m.Name)
		}
	}
}
