module github.com/masrl/masrl/bench/templ

go 1.26.8

require github.com/a-h/templ v0.3.977
