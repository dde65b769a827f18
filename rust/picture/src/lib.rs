//! gammon-picture: SVG pictures of backgammon and Battlegammon boards, drawn in one place for the
//! Python package, the command line and the HTTP server.
