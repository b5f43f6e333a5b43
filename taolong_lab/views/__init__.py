"""Views: text and SVG pictures of positions. The engine never imports these at module level."""
