"""The browser client: static files (``static/``) served by the hall at ``/``.

No build step: plain HTML, CSS and JavaScript modules, shipped as package data.
"""
