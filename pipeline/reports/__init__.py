"""Reports over the lake for the three kinds of users; each a function returning data."""
