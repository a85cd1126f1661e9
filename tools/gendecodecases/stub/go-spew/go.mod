module github.com/davecgh/go-spew
