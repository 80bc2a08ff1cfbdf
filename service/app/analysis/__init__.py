"""Work on finished deals and on the bots: reviews, the duplicate arena and its intervals."""
