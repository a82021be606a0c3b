# SPDX-License-Identifier: GPL-2.0-or-later
# The legend under the graph, where it hides no data, in as many columns as the width holds
# (DejaVu Sans 11 pt: about 7.5 pixels a character, and the sample line), with a bottom margin
# sized for its rows: gnuplot's own puts a boxed legend over the x axis's label.
key_len = 0
do for [i=1:words(labels)] { if (strlen(word(labels, i)) > key_len) { key_len = strlen(word(labels, i)) } }
key_cols = int((width - 40) / ((key_len + 9) * 7.5))
key_cols = key_cols < 1 ? 1 : key_cols
key_rows = int((words(labels) + key_cols - 1) / key_cols)
set key below horizontal box opaque maxcols key_cols
set bmargin key_rows + 5
