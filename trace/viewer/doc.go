// Package viewer is the orchestration-trace viewer: one script
// (viewer.js) and one style sheet (viewer.css) that draw a trace as a
// timeline of agent lanes with its edges, findings and Table 14 measures.
// The same two files run on the site's traces page, where the reader drops
// a trace that the WebAssembly validator reads in the page, and inside the
// self-contained HTML file that `masrl trace view` writes (view.html, with
// the files inlined and the trace embedded as inert JSON).
//
// The viewer never computes a measure itself: every figure it shows comes
// from the validator's report (trace.Report), in the page from masrlValidate
// and in the file from trace.Validate, in the shape Report gives both.
package viewer
