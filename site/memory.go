package site

// BuildMemoryLimit is the soft memory limit a process that builds a site
// should run under (runtime/debug.SetMemoryLimit; masrl build sets it
// unless GOMEMLIMIT does). A build of 100,000 entries keeps about 600 MB
// live (the corpus, its views and every entry's rendered list item); the
// collector's default of letting the heap double before collecting took
// the process to 1.7 GB, and this limit keeps it near 1.2 GB for about a
// tenth more CPU time. A smaller corpus never reaches the limit. The
// package sets nothing itself: the memory limit is the process's.
const BuildMemoryLimit = 1200 << 20

// BuildGCPercent is the GOGC a process that builds a site should run
// with (runtime/debug.SetGCPercent; masrl build sets it unless GOGC
// does). A 10,000-entry build keeps 70 to 85 MB live and allocates many
// times that in short-lived page data and template output; at the
// default of 100 the collector ran 17 cycles, its mark workers 7 to 9 %
// of the build's CPU (bench/profile/build-10k-2.md). At 400 it runs 5,
// for a peak of about 370 MB instead of 210, and BuildMemoryLimit still
// bounds the heap of a large corpus.
const BuildGCPercent = 400
