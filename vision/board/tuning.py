"""The board stage's tuned numbers: every threshold of finding the grid, in one frozen config.

``python -m bench corners`` and ``tileref eval --stage corners`` measure them; what the longer
notes below were measured by is in ``docs/tuning.md`` (section "Finding the board").
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LocateConfig:
    """Every threshold of the finder in one place (:mod:`vision.board.locate` names the steps)."""

    work_px: int = 640  # long side of the copy the rough search runs on
    retry_work_px: int = 960  # ...and of the one it looks again on when that finds nothing
    lsd_scale: float = 0.8  # LSD's own downscale of the work copy (its default)
    lsd_quant: float = 2.0  # LSD's gradient noise bound: weaker gradients start no segment
    min_segment_px: float = 6.0  # shorter LSD segments are texture, not lines
    family_inlier_deg: float = 2.0  # a segment belongs to a vanishing point within this angle
    ransac_iterations: int = 200
    ransac_scored: int = 300  # longest segments that score the hypotheses
    min_family_separation_deg: float = 25.0  # the two families' directions differ at least so
    comb_min_cells_frac: float = 0.15  # the grid spans at least this share of the segment cloud
    comb_max_cells_frac: float = 1.05
    comb_log_step: float = 0.025  # period ladder of the comb search (2.5 % steps)
    comb_bins: int = 500  # histogram bins across the segment cloud
    max_aspect: float = 1.25  # cell width / height allowed in the rectified frame
    unknown_focal_range: tuple[float, float] = (0.9, 4.0)  # phone focals, in half long sides
    vp_angle_noise_deg: float = 0.5  # direction error of a fitted vanishing point, about
    focal_max_rel_error: float = 0.3  # a focal (squared) less certain than this is not used
    default_focal: float = 1.6  # in half long sides (~65 degrees across the long side)
    min_focal: float = 0.5
    max_focal: float = 6.0
    refine_cell_px: int = 24  # cell size of the rectified image the refinement measures in
    refine_rounds: int = 3
    # The first rounds fit the homography to every line sample at once (robust from a third of a
    # cell off); the last fits lines, then their 256 intersections, which places the corners best
    # once close (docs/tuning.md).
    sample_fit_rounds: int = 2
    sample_fit_cutoffs: tuple[float, ...] = (1.0, 0.5, 0.3, 0.15, 0.15)  # Tukey, in cells
    # Corners moving less than this in a round: refinement is done. Loose, since converge places
    # the chosen grid; these rounds only rank the hypotheses and pull them in (docs/tuning.md).
    settled_cells: float = 0.1
    refine_source_cells: float = 2.5  # photo shrunk to about this many refine cells per cell
    shift_search_cells: int = 7  # how many whole cells the grid may slide after the comb
    shift_cell_px: int = 16
    min_shift_gain: float = 0.5  # mean cellness gained per cell moved in, to accept a shift
    refine_search_cells: float = 0.35  # how far (cells) a line may move in one round
    line_smooth_cells: float = 0.06  # line profiles smoothed this much: a line's 2 edges -> 1 peak
    support_tolerance: float = 0.15  # cells: a line sample this close to the grid supports it
    support_strength: float = 1.5  # ...and stands out this much from its surroundings
    focus_passes: int = 1  # re-runs on the segments inside the last pass's best grid...
    focus_period_range: float = 0.2  # log-range of periods a focused pass searches
    focus_converged_cells: float = 0.5  # stop re-running once the best grid moves less
    second_pass_grow: float = 1.15  # ...grown by this factor about its centre
    # The board's outline as more hypotheses (vision.board.outline): the biggest four-sided
    # contours of the work copy's edges, each between these shares of the photo's area.
    outline_candidates: int = 3
    outline_canny_low: int = 30  # Canny's lower threshold (the upper is three times it)
    outline_min_area: float = 0.04
    outline_max_area: float = 0.95
    outline_approx: float = 0.03  # a side's straightness: polygon tolerance / perimeter
    # The premium squares as more hypotheses on the second look (vision.board.premiums): colour
    # blobs (MSER of a* and b*, this delta, area between these, hull filled this much and this
    # share of its bounding rectangle) on a copy premium_px across, linked within this many of
    # their sizes; the biggest premium_groups groups of premium_min_blobs or more are refitted
    # to the layout premium_refits times, a blob pairing with a square's centre this near.
    premium_px: int = 640
    premium_mser_delta: int = 4
    premium_max_regions: int = 3000  # more MSER regions: texture or noise (photos: 530 at most)
    premium_min_area: int = 12
    premium_max_area: float = 0.004  # share of the copy's area
    premium_solidity: float = 0.6
    premium_squareness: float = 0.75
    premium_link_sizes: float = 5.0
    premium_min_blobs: int = 8
    premium_groups: int = 2
    premium_refits: int = 3
    premium_pair_cells: float = 0.4
    premium_ransac_px: float = 3.0
    premium_unlike_board: float = 8.0  # a*b* units from the group's median colour: not plain
    # A grid so fitted is offered only when this share of the blobs inside it lie on premium
    # squares: 0.92 or more on 95 % of the stress set's grids within half a cell of the board,
    # 0.12-0.20 on ruled paper and colour noise (vision.board.premiums, docs/tuning.md).
    premium_on_squares: float = 0.6
    # The lattice grown from a group's blobs (vision.board.premiums): from up to this many seed
    # blobs, a blob joining within premium_lattice_off cells of a lattice point, at most
    # premium_lattice_reach cells from a blob taken; the seeds end once one gathers this share
    # of the group. It is placed where this share of its blobs lie on premium squares, if no
    # other window of the board holds within premium_lattice_margin as many.
    premium_lattice_seeds: int = 4
    premium_lattice_off: float = 0.3
    premium_lattice_reach: int = 5
    premium_lattice_done: float = 0.8
    premium_lattice_on: float = 0.85
    premium_lattice_margin: int = 2
    comb_candidates: int = 3  # rough hypotheses refined when the first is not convincing
    thorough_comb_candidates: int = 8  # ...and on the second look (docs/tuning.md)
    # Line support that (with square-like cells) ends the search: no grid found later beat a
    # first one this good (docs/tuning.md).
    good_enough: float = 0.6
    max_hypotheses: int = 6  # (the thorough second look: thorough_hypotheses more)
    thorough_hypotheses: int = 10
    same_quad_cells: float = 0.4  # a hypothesis this close to one already refined is skipped
    hopeless_support_gap: float = 0.15  # ...as is one this far below the best after one round
    cellness_weight: float = 0.2
    parity_min_support: float = 0.5  # every other line seen this well...
    parity_ratio: float = 0.4  # ...and the others less than this share of it: period halved
    symmetry_cell_px: int = 12
    min_symmetry_gain: float = 0.15  # relative drop of asymmetry needed to move by a cell
    cellness_full: float = 1.0  # mean cellness at which the squares count as fully convincing
    min_confidence: float = 0.4  # below this we say "no board" rather than guess
    min_axis_support: float = 0.36  # ...as when either family of grid lines is this poorly seen
    dark_p99: float = 30.0  # 99th-percentile grey below which the photo is too dark
    blur_laplacian_var: float = 12.0  # variance of Laplacian (on the work copy) below: too blurry
    blurred_min_straight: float = 2.7  # ...if it shows straight edges (else no board: noise)
    cut_off_margin_cells: float = 0.15  # a corner this far outside the image: board cut off
    end_block_lines: int = 4  # the lines next to the outermost one, at each end of an axis...
    min_end_support: float = 0.25  # ...seen less than this: not a whole board (photos: >= 0.35)
    end_support_ratio: float = 0.45  # ...or than this share of the axis' median (photos: 0.64)
    # The refinement finds the *centres* of the grid lines; a grid's corner is the outer edge of
    # its border line (where people, and the truth files, put it). Half a border line, in cells
    # (`python -m bench corners`; docs/tuning.md).
    border_half_width_cells: float = 0.1
    # The last stage (vision.board.refine.converge) repeats one fixed fit until the corners stop
    # moving, so its answer does not depend on where the rounds above left off (docs/tuning.md).
    converge_rounds: int = 10  # at most (2 or 3 are typical)
    converge_cell_px: int = 32  # finer than refine_cell_px
    converge_search_cells: float = 0.2  # fixed window, so the same peaks win every round
    converge_bands: int = 4  # samples per line per cell: a tile edge is one outlier of many
    converge_cutoffs: tuple[float, ...] = (0.5, 0.3, 0.15, 0.15)  # Tukey, cells, every round
    converged_cells: float = 0.01
    # The premium layout (vision.board.layout): how many whole cells each way a grid is tried
    # moved, and the cell size its colours are measured at (docs/tuning.md).
    layout_reach: int = 5
    layout_move_reach: int = 2  # ...and the grid finally chosen (symmetry moved it a cell)
    layout_cell_px: int = 6
    # A grid whose premium kinds are told apart less well than this is no board (0.5: chance)...
    min_layout_score: float = 0.70
    min_layout_placed: float = 0.78  # ...one the layout moved > 1 cell or resized, less than this
    # ...and one the layout fits this much better moved by whole cells is moved there.
    layout_shift_gain: float = 0.1
    layout_rescues: int = 3  # grids tried moved to where the layout fits, when none shows it
    layout_min_standing: float = 4.5  # ...where it fits better than elsewhere by this much
    layout_near_moves: int = 2  # ...and the best few moves by one cell, judged once refined
    cut_off_layout: float = 0.66  # a lattice running off the photo fits the layout this well
    layout_span_gain: float = 0.03  # a grid a cell longer or shorter that fits this much better
    layout_span_steps: int = 2  # ...is taken, this many times at most
    layout_min_on_photo: float = 0.6  # share of a window's squares on the photo to judge it
    # A grid whose squares show the layout this clearly is a whole board, however faint its
    # lines (a steep, soft photo's far rows): its lines need not hold, nor its ends show.
    layout_whole: float = 0.85
    layout_sure: float = 0.97  # a grid fitting the layout this well is not moved by it (speed)


CONFIG = LocateConfig()


__all__ = ["CONFIG", "LocateConfig"]
