package main

import (
	"fmt"
	"io"
)

// failer returns the one way a command fails: fail(code, format, args...)
// prints one line "masrl NAME: message" on stderr and returns the exit
// code for the command to return (exitUsage, or exitFindings). A usage
// error is answered with fs.Usage instead, and findings by the command's
// report before it returns exitFindings. ARCHITECTURE.md says the same.
func failer(stderr io.Writer, name string) func(code int, format string, args ...any) int {
	return func(code int, format string, args ...any) int {
		fmt.Fprintf(stderr, "masrl "+name+": "+format+"\n", args...)
		return code
	}
}

// editFailer is failer for a command that edits the corpus: a failure
// also says "no file was changed", which is true of every failure before
// corpus.Apply and of Apply's own but a *corpus.HalfAppliedError (that
// one is reported with failer).
func editFailer(stderr io.Writer, name string) func(code int, format string, args ...any) int {
	fail := failer(stderr, name)
	return func(code int, format string, args ...any) int {
		fail(code, format, args...)
		if code != exitOK {
			fail(code, "no file was changed")
		}
		return code
	}
}
