module github.com/jakecoffman/cp/v2

go 1.22
