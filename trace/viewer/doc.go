// Package viewer is the orchestration-trace viewer: one script
// (viewer.js) and one style sheet (viewer.css) that draw a trace as a
// timeline of agent lanes with its edges, findings and Table 14 measures.
// The same two files run on the site's traces page, where the reader drops
// a trace that the WebAssembly validator reads in the page, and inside the
// self-contained HTML file that `masrl trace view` writes (view.html, with
// the files inlined and the trace embedded as inert JSON).
//
// A trace of more than 50 MB of JSON is parsed by viewer.js running as
// a Web Worker (from its own address on the site, from a Blob of its text
// in the file, whose policy allows worker-src blob:), which keeps the
// events and hands the page the few it shows; a smaller one is parsed in
// the page, which measured faster (BENCHMARKS.md). On the traces page the
// validator's script builds the picker and loads viewer.js only once a
// file is chosen.
//
// The viewer never computes a measure itself: every figure it shows comes
// from the validator's report (trace.Report), in the page from masrlValidate
// and in the file from trace.Validate, in the shape Report gives both.
package viewer
