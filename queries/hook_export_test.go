package queries

// OpenWithViewHook opens a session that calls hook after creating each
// table view (for the snapshot test).
var OpenWithViewHook = open
