"""The tournament pages (HTML edge), one module per resource; ``urls`` routes them."""
