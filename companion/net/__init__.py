"""Serving the app on the network: who may do what (`access`), the table code, and the web server.

`access` is plain Python (the view models read it); `guard`, `hosts`, `server` and `qr` serve the Flet
app through uvicorn and are imported only when the app runs.
"""
