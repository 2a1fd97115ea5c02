"""Pictures of 字牌: what one seat sees (``view``: ``PositionView``, ``Group``, ``Offer``) and
SVG drawings of cards and hands (``cards``) and of table positions (``table``), in the look of
paper 字牌."""

from zipai_sim.pictures.cards import Svg, draw_cards, draw_hand
from zipai_sim.pictures.table import draw_position
from zipai_sim.pictures.view import Group, Offer, PositionView

__all__ = ["Group", "Offer", "PositionView", "Svg", "draw_cards", "draw_hand", "draw_position"]
