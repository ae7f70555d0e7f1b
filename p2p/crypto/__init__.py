"""Mental poker (pure, sans-I/O): the deck every peer of a table shares and verifies.

ElGamal over secp256k1 with a joint key, one proven re-encryption shuffle per peer
(Terelius-Wikström), Chaum-Pedersen decryption shares; see ``docs/mental-poker.md``. The peer
layer drives one :class:`lancards.p2p.crypto.coordinator.DeckCoordinator` per seat.
"""
