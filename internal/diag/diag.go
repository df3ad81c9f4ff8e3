// Package diag is the vocabulary every finding of masrl shares: the
// corpus check's diagnostics, the trace validator's findings and the OTLP
// importer's diagnostics all carry a diag.Severity, so that a report
// reads the same whichever part of the tool made it.
package diag

import "fmt"

// Severity says whether a finding fails what it is about (an error) or
// only points at something that may still be right (a warning). Its zero
// value is Error: a finding whose severity was never set fails rather
// than passes.
type Severity int

const (
	// Error findings fail the corpus, the trace or the import.
	Error Severity = iota
	// Warning findings are reported and do not fail anything by
	// themselves (trace validate --strict makes them errors).
	Warning
)

// String is "error" or "warning", as every report prints it.
func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText writes the severity as "error" or "warning" in JSON reports.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads "error" or "warning", so that JSON reports
// round-trip.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("unknown severity %q: want error or warning", b)
	}
	return nil
}
