package vault

// SetBeforeCommit makes w call fn when a write's temp file is ready, right
// before the note is checked again and replaced: a test stands in there for
// a human saving the note at the worst moment.
func SetBeforeCommit(w *Writer, fn func()) { w.beforeCommit = fn }

// SetAfterCheck makes w call fn after it checked a note for the last time,
// right before the move that replaces it: a test stands in there for a
// human saving in the last instant.
func SetAfterCheck(w *Writer, fn func()) { w.afterCheck = fn }
