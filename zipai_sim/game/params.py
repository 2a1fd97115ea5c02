"""Layout of the plain integer tuple that a compiled variant hands to the kernels.

The kernels never see a Python object: `Variant.params` is a ``tuple[int, ...]`` of length
``N_PARAMS`` and each knob sits at the index named here. Indices are module constants so numba
freezes them at compile time. Adding a knob appends an index and bumps ``N_PARAMS``.
"""

# deal layout (RULES.md §2)
SEATS = 0  # active players: 3, or 4 for 六胡倒
DEALER_CARDS = 1  # 21 (15 in 六胡倒), 亮张 included
OTHER_CARDS = 2  # 20 (14)
STOCK_LEN = 3  # 19 (23)

# 胡息 per group, small then big (RULES.md §4)
PENG_SMALL_BLACK = 4
PENG_SMALL_RED = 5
PENG_BIG_BLACK = 6
PENG_BIG_RED = 7
KAN_SMALL = 8  # 坎, hidden three dealt
KAN_BIG = 9
WEI_SMALL = 10  # 偎
WEI_BIG = 11
CHOUWEI_SMALL = 12  # 臭偎
CHOUWEI_BIG = 13
PAO_SMALL = 14  # 跑, exposed four
PAO_BIG = 15
TI_SMALL = 16  # 提, hidden four
TI_BIG = 17
YIERSAN_SMALL = 18  # 一二三 / 壹贰叁
YIERSAN_BIG = 19
ERQISHI_SMALL = 20  # 二七十 / 贰柒拾
ERQISHI_BIG = 21

# winning (RULES.md §6)
THRESHOLD = 22  # 起胡: least 胡息 of a complete hand that wins
PIAOHU = 23  # 1: a complete hand with exactly 0 胡息 also wins (长沙 飘胡)
QIANGZHAO = 24  # 1: 抢招和, a 坎 may stay a 坎 when another player's card wins
DISCARD_WIN = 25  # 1: may win on another player's discard (放炮)

# deal-time rules (RULES.md §6, §8 second table)
SANTI_MIN = 26  # instant win with at least this many 提 at the deal; 0 = off
WUKAN_MIN = 27  # instant win with at least this many 坎; 0 = off
TI_COUNTS_AS_KAN = 28  # 1: 提 count toward the 五坎 total (桂林)
WUKAN_LIANGZHANG = 29  # 1: 五坎 wins only for the dealer whose 亮张 completes the 5th 坎 (衡阳)
TWO_TI_EXTRA = 30  # 1: two 提 at the deal → draw one extra card; 0: no discard / skip
DIHU_LIANGZHANG = 31  # 1: 地胡 = non-dealer's 20 + 亮张; 0: on the dealer's first discard

# 翻信 / 翻醒 (RULES.md §7.3)
FANXING = 32  # 1: enabled
FANXING_MATCH = 33  # 0 本醒 same kind, 1 上醒 value+1, 2 下醒 value-1, 3 跟醒 the winning card
FANXING_COUNT_ALL = 34  # 1: all the winner's cards (winning card included); 0: hand cards only
FANXING_RETURN_ON_FOUR = 35  # 1: turn again while the winner holds all four of the match
FANXING_WRAP = 36  # 1: 上醒 of 十 is 一 and 下醒 of 一 is 十 (same size); 0: no match past the ends

# play (RULES.md §5.3, §5.6)
PASSED_PENG_CHI = 37  # 1: a passed 碰 bars later 碰 of the kind but not 吃 (大字牌, seed 004 篇4)
ONLY_KAN_SKIP = 38  # 1: a discard owed with only 坎 in hand is skipped; 0: a 坎 is broken

N_PARAMS = 39

MATCH_BEN, MATCH_SHANG, MATCH_XIA, MATCH_GEN = 0, 1, 2, 3
