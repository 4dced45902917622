package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/convsearch/convsearch/query"
)

// Overviewer is a Backend that can tell what the index holds over time:
// the query Engine, and the daemon's Live and Client in front of one.
type Overviewer interface {
	Overview(ctx context.Context) (*query.Overview, error)
}

// errNoOverview is the answer of a Backend without an overview.
var errNoOverview = errors.New("this backend cannot tell an overview of the index")

// overview answers GET /api/overview: conversations and messages per
// source and per project over time, the last pass and the files that
// failed, for the page's overview.
func (h *handler) overview(w http.ResponseWriter, r *http.Request) {
	if err := known(r.URL.Query()); err != nil {
		writeBadRequest(w, err)
		return
	}
	ov, ok := h.o.Backend.(Overviewer)
	if !ok {
		writeError(w, http.StatusNotImplemented, "%v", errNoOverview)
		return
	}
	res, err := ov.Overview(r.Context())
	if err != nil {
		h.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, res)
}
