// Command ferretdb-local runs an embedded FerretDB v1 (MongoDB wire protocol)
// on its SQLite backend, for the Docker-less local stack (deploy/local/start.sh).
//
// It exists because `go install github.com/FerretDB/FerretDB/cmd/ferretdb`
// panics at start-up (build/version/version.txt is generated and missing from
// the module zip), while the embeddable package github.com/FerretDB/FerretDB/ferretdb
// works when the main module is not FerretDB itself. The embeddable package
// also disables telemetry explicitly.
//
// Usage:
//
//	ferretdb-local -listen 127.0.0.1:27018 -dir /path/to/data [-log-level info]
package main

import (
	"context"
	"flag"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	listen := flag.String("listen", "127.0.0.1:27018", "TCP address to listen on")
	dir := flag.String("dir", "data", "directory for the SQLite database files (created if missing)")
	level := flag.String("log-level", "info", "log level: debug, info, warn, error")
	flag.Parse()

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		fmt.Fprintf(os.Stderr, "ferretdb-local: bad -log-level %q: %s\n", *level, err)
		os.Exit(2)
	}

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl}))

	abs, err := filepath.Abs(*dir)
	if err != nil {
		logger.Error("bad -dir", "err", err)
		os.Exit(2)
	}

	if err = os.MkdirAll(abs, 0o755); err != nil {
		logger.Error("cannot create data directory", "dir", abs, "err", err)
		os.Exit(1)
	}

	// FerretDB wants "file:<existing dir>/"; build it via net/url so odd paths are escaped.
	sqliteURL := "file:" + (&url.URL{Path: abs + "/"}).EscapedPath()

	f, err := ferretdb.New(&ferretdb.Config{
		Listener: ferretdb.ListenerConfig{
			TCP: *listen,
		},
		Logger:    logger,
		Handler:   "sqlite",
		SQLiteURL: sqliteURL,
	})
	if err != nil {
		logger.Error("cannot start FerretDB", "err", err)
		os.Exit(1)
	}

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()

	logger.Info("ferretdb-local starting", "listen", *listen, "sqlite", sqliteURL)

	go func() {
		<-ctx.Done()
		logger.Info("ferretdb-local: signal received, shutting down")
	}()

	if err = f.Run(ctx); err != nil {
		logger.Error("FerretDB stopped with error", "err", err)
		os.Exit(1)
	}

	logger.Info("ferretdb-local stopped")
}
