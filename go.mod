module github.com/masrl/masrl

go 1.26.8
