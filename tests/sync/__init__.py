"""The sync layers: the CouchDB client against a real server, a cut network and a hostile server."""
