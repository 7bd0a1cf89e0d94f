package view

import (
	"embed"
	"io/fs"
	"net/http"
	"time"
)

//go:embed assets templates
var files embed.FS

// zeroTime makes http.ServeContent skip Last-Modified.
var zeroTime time.Time

// assetHandler serves the embedded CSS and script.
func assetHandler() http.Handler {
	sub, err := fs.Sub(files, "assets")
	if err != nil {
		panic(err)
	}
	return http.FileServerFS(sub)
}
