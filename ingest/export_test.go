package ingest

// ParseTimeForTest exposes parseTime to the external tests.
var ParseTimeForTest = parseTime
