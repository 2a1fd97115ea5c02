"""Pictures of 字牌: what one seat sees (``view``: ``PositionView``, ``Group``, ``Offer``) and
SVG drawings of cards, hands and table positions (``svg``), in the look of paper 字牌."""

from zipai_sim.pictures.svg import Svg, draw_cards, draw_hand, draw_position
from zipai_sim.pictures.view import Group, Offer, PositionView

__all__ = ["Group", "Offer", "PositionView", "Svg", "draw_cards", "draw_hand", "draw_position"]
