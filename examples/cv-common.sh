# SPDX-License-Identifier: LGPL-2.1-or-later
# Shared by the example scripts (sourced, not run): finding the plugin,
# checking for elements, the backend choice, the pieces every pipeline has
# (sources, the chain, encoders) and the three ways to use a launch line:
# run it, print it, or check it.
#
# Every script takes these options (cv_common_option handles them):
#   --cpu | --gpu     backend (default: the GPU when cudaupload/cudadownload
#                     exist, i.e. gst-plugins-bad's nvcodec found a GPU)
#   --print           print the launch line and exit
#   --check           check the launch line without hardware: parse it and
#                     link it with gst-launch-1.0, the camera (v4l2src)
#                     replaced by videotestsrc, display sinks by fakesink,
#                     and GPU elements not installed here by identity
#   --simulate N      N frames of the synthetic stereo camera
#                     (stereotestsrc) in place of the camera(s); with
#                     --print / --check, the launch line that would run
#   -m, --messages    post-messages=true on the elements, gst-launch-1.0 -m
#   -h, --help

CV_EXAMPLES_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CV_REPO_DIR=$(dirname "$CV_EXAMPLES_DIR")
CV_NAME=$(basename "$0")
CV_MODE=run           # run | print | check
CV_BACKEND=auto       # auto | cpu | gpu
CV_SIM_FRAMES=""      # --simulate N: the synthetic camera's frames
CV_MESSAGES=0

# The uninstalled plugin of this checkout (tools/build.sh builds it) when
# GST_PLUGIN_PATH does not already say where to look.
: "${CV_BUILD_DIR:=$CV_REPO_DIR/build}"
if [ -z "${GST_PLUGIN_PATH:-}" ] && [ -d "$CV_BUILD_DIR/gst" ]; then
  export GST_PLUGIN_PATH="$CV_BUILD_DIR/gst"
fi

cv_die() {
  echo "$CV_NAME: error: $*" >&2
  exit 1
}

cv_note() {
  echo "$CV_NAME: $*" >&2
}

# (--atleast-version: --exists alone also demands the GStreamer version,
# 1.22, of the plugin; this project's plugin has its own, 0.1.0)
cv_have() {
  gst-inspect-1.0 --exists --atleast-version=0.0.0 "$1" 2>/dev/null
}

# Where an element comes from, for the message when it is missing.
cv_hint() {
  case "$1" in
    cudasgm|cudastixels|cudardp|cudaroaddetect|cudahough|stereotestsrc)
      echo "this project's plugin: build it (tools/build.sh) and point GST_PLUGIN_PATH at build/gst, or install it" ;;
    cudaupload|cudadownload|nvh264enc)
      echo "gst-plugins-bad's nvcodec plugin (gstreamer1.0-plugins-bad), which registers it only when an NVIDIA driver and a CUDA GPU are present (check with: gst-inspect-1.0 nvcodec)" ;;
    x264enc)
      echo "gstreamer1.0-plugins-ugly" ;;
    v4l2src|mp4mux|qtmux|jpegdec|pngdec|pngenc|multifilesrc|videocrop|videobox|autovideosink)
      echo "gstreamer1.0-plugins-good" ;;
    compositor|videoconvert|videotestsrc|tee|queue|appsink)
      echo "gstreamer1.0-plugins-base" ;;
    h264parse)
      echo "gstreamer1.0-plugins-bad" ;;
    *)
      echo "a GStreamer plugin package (gst-inspect-1.0 $1)" ;;
  esac
}

# Elements that are not there on every machine: the camera and the GPU
# (in --check mode they get stand-ins).
cv_is_hw() {
  case "$1" in
    v4l2src|cudaupload|cudadownload|nvh264enc) return 0 ;;
  esac
  return 1
}

# Fails (naming the package) unless every element given is installed.  Not
# checked in --print mode (the line may be meant for another machine); in
# --check mode the hardware-dependent ones may be missing (stand-ins).
cv_need() {
  local e
  [ "$CV_MODE" = print ] && return 0
  for e in "$@"; do
    cv_have "$e" && continue
    if [ "$CV_MODE" = check ] && cv_is_hw "$e"; then
      continue
    fi
    cv_die "the GStreamer element '$e' is missing: it comes from $(cv_hint "$e")"
  done
}

# The element NAME, or in --check mode, when it is not installed here, a
# stand-in (identity) that links wherever it does.
cv_el() {
  if [ "$CV_MODE" = check ] && ! cv_have "$1"; then
    echo "identity name=stand-in-for-$1-$RANDOM$RANDOM"
  else
    echo "$1"
  fi
}

# (files: for a script that reads files, which has no --simulate)
cv_usage_common() {
  cat <<'EOF'
Common options:
  --cpu | --gpu     backend (default: GPU when cudaupload/cudadownload exist)
  --print           print the launch line and exit
  --check           parse and link the launch line with gst-launch-1.0,
                    without the hardware (v4l2src -> videotestsrc, display
                    -> fakesink, missing GPU elements -> identity)
EOF
  [ "${1:-}" = files ] || cat <<'EOF'
  --simulate N      N frames of the synthetic stereo camera in place of the
                    camera(s) (with --print / --check: that launch line)
EOF
  cat <<'EOF'
  -m, --messages    per-frame summaries on the bus (post-messages=true, -m)
  -h, --help        this text
EOF
}

# Handles a common option; returns the number of arguments it used (0 when
# the option is not a common one).
cv_common_option() {
  case "$1" in
    --cpu) CV_BACKEND=cpu; return 1 ;;
    --gpu) CV_BACKEND=gpu; return 1 ;;
    --print) CV_MODE=print; return 1 ;;
    --check) CV_MODE=check; return 1 ;;
    --simulate)
      [[ $# -ge 2 && $2 =~ ^[0-9]+$ ]] || cv_die "--simulate needs a frame count"
      CV_SIM_FRAMES=$2; return 2 ;;
    -m|--messages) CV_MESSAGES=1; return 1 ;;
  esac
  return 0
}

# Resolves CV_BACKEND (auto -> gpu or cpu) and checks what it needs.
cv_pick_backend() {
  if [ "$CV_BACKEND" = auto ]; then
    if cv_have cudaupload && cv_have cudadownload; then
      CV_BACKEND=gpu
    else
      CV_BACKEND=cpu
    fi
  fi
  [ "$CV_BACKEND" = gpu ] && cv_need cudaupload cudadownload
  return 0
}

# " ! cudaupload" on the GPU backend, "" on the CPU one (and the download).
cv_upload() {
  [ "$CV_BACKEND" = gpu ] && echo " ! $(cv_el cudaupload)"
  return 0
}
cv_download() {
  [ "$CV_BACKEND" = gpu ] && echo " ! $(cv_el cudadownload)"
  return 0
}

# post-messages=true when asked for.
cv_msg() {
  [ "$CV_MESSAGES" = 1 ] && echo " post-messages=true"
  return 0
}

# A display: autovideosink, fakesink in --check mode.
cv_display() {
  if [ "$CV_MODE" = check ]; then
    echo "fakesink"
  else
    echo "${1:-autovideosink}"
  fi
}

# The synthetic stereo camera (for --simulate): WIDTH HEIGHT of the whole
# side-by-side frame, FRAMES (none in --check mode: parse and link only).
cv_synthetic_source() {
  local n=$3
  [ "$CV_MODE" = check ] && n=0
  echo "stereotestsrc num-buffers=$n ! video/x-raw,width=$1,height=$2"
}

# The H.264 encoder (CV_ENCODER: auto, nvh264enc or x264enc; auto takes
# NVENC when it is there, else x264) and the MP4 writer.
cv_pick_encoder() {
  case "${CV_ENCODER:-auto}" in
    auto)
      if cv_have nvh264enc; then CV_ENCODER=nvh264enc
      elif cv_have x264enc || [ "$CV_MODE" = print ]; then CV_ENCODER=x264enc
      else
        cv_die "no H.264 encoder: nvh264enc comes from $(cv_hint nvh264enc); x264enc from $(cv_hint x264enc)"
      fi ;;
    nvh264enc|x264enc) ;;
    *) cv_die "unknown encoder '$CV_ENCODER' (nvh264enc or x264enc)" ;;
  esac
  cv_need "$CV_ENCODER" h264parse mp4mux
}

# "<encoder> ! h264parse ! mp4mux ! filesink location=FILE": nvh264enc
# takes CUDA and system memory, x264enc system memory.
cv_mp4_sink() {
  local enc
  if [ "$CV_ENCODER" = nvh264enc ]; then
    enc=$(cv_el nvh264enc)
  else
    # 4:2:0, which players and hardware decoders take (from RGBA,
    # videoconvert would pick Y444: H.264 High 4:4:4)
    enc="videoconvert ! video/x-raw,format=I420 ! x264enc speed-preset=veryfast"
  fi
  echo "$enc ! h264parse ! mp4mux ! filesink location=$1"
}

# Runs, prints or checks a launch line (one string; gst-launch-1.0 splits
# it at white space, quotes are not needed by any of the examples).
cv_launch() {
  local pipeline=$1 n
  case "$CV_MODE" in
    print)
      echo "gst-launch-1.0 -e $pipeline"
      ;;
    check)
      for n in $(echo "$pipeline" | grep -o 'stand-in-for-[a-z0-9]*' | sort -u); do
        cv_note "note: ${n#stand-in-for-} is not installed here: checked with identity in its place"
      done
      # shellcheck disable=SC2086
      if ! out=$(gst-launch-1.0 -q $pipeline 2>&1); then
        echo "$out" >&2
        cv_die "check failed: gst-launch-1.0 $pipeline"
      fi
      echo "$CV_NAME: check ok: gst-launch-1.0 $pipeline"
      ;;
    run)
      cv_note "backend: $CV_BACKEND"
      [ -n "$CV_SIM_FRAMES" ] && cv_note "simulating the camera with stereotestsrc"
      cv_note "gst-launch-1.0 -e $pipeline"
      # shellcheck disable=SC2086
      exec gst-launch-1.0 -e $([ "$CV_MESSAGES" = 1 ] && echo -m) $pipeline
      ;;
  esac
}

# ---- calibration -----------------------------------------------------------
# The four numbers cudasgm copies into the disparity meta (docs/overview.md,
# "Calibration"): focal length and principal point of the rectified left
# view in pixels, baseline in metres.  Set by --focal-length, --principal-x,
# --principal-y, --baseline or --calib FILE (lines "name=value" with those
# names; '#' starts a comment).
CV_FOCAL=""
CV_CX=""
CV_CY=""
CV_BASELINE=""

cv_is_number() {
  [[ "$1" =~ ^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$ ]]
}

cv_set_calib() {
  cv_is_number "$2" || cv_die "--$1 needs a number, got '$2'"
  case "$1" in
    focal-length) CV_FOCAL=$2 ;;
    principal-x) CV_CX=$2 ;;
    principal-y) CV_CY=$2 ;;
    baseline) CV_BASELINE=$2 ;;
    *) cv_die "unknown calibration value '$1'" ;;
  esac
}

cv_read_calib() {
  local line key value
  [ -r "$1" ] || cv_die "cannot read the calibration file '$1'"
  while IFS= read -r line || [ -n "$line" ]; do
    line=${line%%#*}
    line=${line//[[:space:]]/}
    [ -z "$line" ] && continue
    key=${line%%=*}
    value=${line#*=}
    cv_set_calib "$key" "$value"
  done < "$1"
}

# Handles a calibration option; returns the number of arguments used.
cv_calib_option() {
  case "$1" in
    --focal-length|--principal-x|--principal-y|--baseline)
      [ $# -ge 2 ] || cv_die "$1 needs a value"
      cv_set_calib "${1#--}" "$2"; return 2 ;;
    --calib)
      [ $# -ge 2 ] || cv_die "--calib needs a file"
      cv_read_calib "$2"; return 2 ;;
  esac
  return 0
}

# The synthetic camera's rig for a view of WIDTH x HEIGHT (stereotestsrc:
# focal length 0.58 x view width, principal point at the centre, 0.54 m).
cv_synthetic_calib() {
  CV_FOCAL=$(awk -v w="$1" 'BEGIN { printf "%.4f", 0.58 * w }')
  CV_CX=$(awk -v w="$1" 'BEGIN { printf "%.1f", (w - 1) / 2 }')
  CV_CY=$(awk -v h="$2" 'BEGIN { printf "%.1f", (h - 1) / 2 }')
  CV_BASELINE=0.54
}

# Fails in run mode without a focal length and a baseline: the depths of
# the consumers (stixels, segments in metres, road heights) need them.
cv_need_calib() {
  case "$CV_MODE" in check|print) return 0 ;; esac
  [ -n "$CV_SIM_FRAMES" ] && return 0
  if [ -z "$CV_FOCAL" ] || [ -z "$CV_BASELINE" ]; then
    cv_die "no calibration: give --focal-length PX and --baseline M (and --principal-x/-y PX, default the view centre), or --calib FILE; docs/overview.md#calibration says how to find them"
  fi
}

# The calibration properties of cudasgm (placeholders in --check and
# --print mode when none were given).
cv_calib_props() {
  if [ -z "$CV_FOCAL" ] || [ -z "$CV_BASELINE" ]; then
    if [ "$CV_MODE" = print ]; then
      echo " focal-length=<px> baseline=<m>"
    else
      echo " focal-length=700 baseline=0.12"
    fi
    return 0
  fi
  echo -n " focal-length=$CV_FOCAL baseline=$CV_BASELINE"
  [ -n "$CV_CX" ] && echo -n " principal-x=$CV_CX"
  [ -n "$CV_CY" ] && echo -n " principal-y=$CV_CY"
  echo
}

# KITTI calibration: calib_cam_to_cam.txt of the raw data (P_rect_02 and
# P_rect_03 for the colour pair, P_rect_00 / P_rect_01 for the grey one) or
# the benchmarks' calib files (P2: / P3:).  P = [fx 0 cx tx; 0 fy cy ty;
# 0 0 1 tz] of each rectified camera; the baseline is the difference of the
# two tx divided by fx.  Usage: cv_read_kitti_calib FILE [LEFT RIGHT]
# (camera numbers, default 2 3).
cv_read_kitti_calib() {
  local file=$1 l=${2:-2} r=${3:-3} vals
  [ -r "$file" ] || cv_die "cannot read the KITTI calibration '$file'"
  vals=$(awk -v l="$l" -v r="$r" '
    $1 == "P_rect_0" l ":" || $1 == "P" l ":" { fx = $2; cx = $4; txl = $5; cy = $8; nl++ }
    $1 == "P_rect_0" r ":" || $1 == "P" r ":" { txr = $5; nr++ }
    END {
      if (!nl || !nr || fx == 0) exit 1
      printf "%.10g %.10g %.10g %.6f\n", fx, cx, cy, (txl - txr) / fx
    }' "$file") || cv_die "no P_rect_0$l / P_rect_0$r (or P$l / P$r) lines in '$file'"
  read -r CV_FOCAL CV_CX CV_CY CV_BASELINE <<<"$vals"
}

# Width and height of a PNG file (from its IHDR chunk).
cv_png_size() {
  local b
  [ -r "$1" ] || cv_die "cannot read '$1'"
  b=($(od -An -tu1 -j16 -N8 "$1"))
  [ ${#b[@]} = 8 ] || cv_die "'$1' is not a PNG file"
  echo $(( (b[0] << 24) | (b[1] << 16) | (b[2] << 8) | b[3] )) \
    $(( (b[4] << 24) | (b[5] << 16) | (b[6] << 8) | b[7] ))
}

# A left and a right PNG sequence (multifilesrc patterns such as
# left/%06d.png, or single files) side by side: sets CV_SRC_HEAD (the
# compositor and its output caps: put it first), CV_SRC_TAIL (the two file
# branches: put them after the rest of the pipeline), CV_VIEW_W,
# CV_VIEW_H and CV_FORMAT.  Usage: cv_pairs_source LEFT RIGHT START FRAMES
# FPS (FRAMES 0 = until a file is missing).
cv_pairs_source() {
  local left=$1 right=$2 start=$3 frames=$4 fps=$5 first stop range size rsize
  first=$(printf "$left" "$start")
  size=($(cv_png_size "$first")) || exit 1
  rsize=($(cv_png_size "$(printf "$right" "$start")")) || exit 1
  [ "${size[*]}" = "${rsize[*]}" ] || cv_die "the left ($first: ${size[0]}x${size[1]}) and right views (${rsize[0]}x${rsize[1]}) differ in size"
  CV_VIEW_W=${size[0]}
  CV_VIEW_H=${size[1]}
  # NV12 needs each view to start on a chroma sample (even width)
  if [ $((CV_VIEW_W % 2)) = 0 ]; then CV_FORMAT=NV12; else CV_FORMAT=RGBA; fi
  if [[ "$left" == *%* ]]; then
    stop=-1
    [ "$frames" -gt 0 ] && stop=$((start + frames - 1))
    range="start-index=$start stop-index=$stop"
  else
    range="start-index=0 stop-index=0"
  fi
  [ "$CV_MODE" = check ] && range+=" num-buffers=0"
  CV_SRC_HEAD="compositor name=pairs sink_0::xpos=0 sink_1::xpos=$CV_VIEW_W ! \
video/x-raw,format=$CV_FORMAT,width=$((2 * CV_VIEW_W)),height=$CV_VIEW_H,framerate=$fps"
  CV_SRC_TAIL="multifilesrc location=$left $range caps=image/png,framerate=$fps ! pngdec ! \
videoconvert ! video/x-raw,format=$CV_FORMAT ! queue ! pairs.sink_0 \
multifilesrc location=$right $range caps=image/png,framerate=$fps ! pngdec ! \
videoconvert ! video/x-raw,format=$CV_FORMAT ! queue ! pairs.sink_1"
}

# The five elements, after the side-by-side pair is on the backend's
# memory, for a view of CV_VIEW_W x CV_VIEW_H with the calibration set.
# Elements that read pixels come first (cudahough: edges; cudaroaddetect:
# colour); cudastixels and cudardp read only the disparity.  cudahough
# reads before cudaroaddetect draws: the edges of the road's tint would be
# taken for lines, while cudahough's lines lie on the lane markings, paint
# that is not road colour anyway.
# Usage: cv_full_chain MAX_DISPARITY OVERLAY(true|false) POSE
# (POSE: camera pose properties, e.g. "estimate-camera=true" or
# "height=1.65 pitch=0.02").
cv_full_chain() {
  local d=$1 ov=$2 pose=$3 horizon roi_y
  # lane markings lie below the horizon: from a tenth of the height below
  # the principal point (the horizon of a level camera) downwards
  horizon=${CV_CY:-$(( (CV_VIEW_H - 1) / 2 ))}
  roi_y=$(awk -v c="$horizon" -v h="$CV_VIEW_H" 'BEGIN { printf "%d", c + h / 10 }')
  echo "cudasgm layout=side-by-side max-disparity=$d$(cv_calib_props)$(cv_msg) ! \
cudahough roi-y=$roi_y min-theta=-75 max-theta=75 $CV_HOUGH_PROPS overlay=$ov$(cv_msg) ! \
cudaroaddetect overlay=$ov $pose$(cv_msg) ! \
cudastixels overlay=$ov $pose$(cv_msg) ! \
cudardp overlay=$ov$(cv_msg)"
}
CV_FULL_CHAIN_ELEMENTS="cudasgm cudahough cudaroaddetect cudastixels cudardp"
# Edges of real lane markings are softer than the synthetic scene's
# (docs/elements/cudahough.md); cv_make_source sets the synthetic values.
CV_HOUGH_PROPS="edge-threshold=250 threshold=60 max-lines=8"

# What follows the chain: into an MP4 file when RECORD is given (call
# cv_pick_encoder first), else to the display SINK; downloads from the GPU
# where needed (NVENC reads GPU memory itself).  Usage: cv_output RECORD SINK
cv_output() {
  local record=$1 sink=$2 down="" crop=""
  [ "$CV_BACKEND" = gpu ] && down="$(cv_el cudadownload) ! "
  if [ -n "$record" ]; then
    # H.264 in 4:2:0 needs an even width and height (KITTI's 1242x375 is
    # not): drop the last column / row
    if [ $((CV_VIEW_W % 2)) = 1 ] || [ $((CV_VIEW_H % 2)) = 1 ]; then
      crop="videocrop right=$((CV_VIEW_W % 2)) bottom=$((CV_VIEW_H % 2)) ! "
    elif [ "$CV_ENCODER" = nvh264enc ]; then
      down=""   # NVENC reads the frames from GPU memory
    fi
    echo "$down$crop$(cv_mp4_sink "$record")"
  else
    echo "${down}videoconvert ! $(cv_display "$sink")"
  fi
}

# ---- sources for the recording examples -------------------------------------
# One of: the synthetic camera (default), a side-by-side v4l2 camera
# (--camera), or left/right PNG sequences (--left/--right).
CV_SOURCE=synthetic
CV_SRC_DEVICE=/dev/video0
CV_SRC_SIZE=""
CV_SRC_FORMAT=yuy2
CV_SRC_FPS=""
CV_SRC_LEFT=""
CV_SRC_RIGHT=""
CV_SRC_START=0
CV_SRC_FRAMES=""

cv_usage_source() {
  cat <<'EOF2'
Source (default: the synthetic stereo camera, two 640x480 views):
  --frames N              frames to record (default: synthetic 100, files all)
  --size WxH              synthetic: one view; camera: the whole frame
  --camera DEV            a side-by-side stereo v4l2 camera (--format yuy2|mjpeg,
                          --fps N/D, --size of the whole frame, default 2560x720)
  --left PATTERN --right PATTERN
                          left/right PNG sequences (multifilesrc patterns) or
                          files, --start N, --fps N/D (default 10/1)
EOF2
}

# Handles a source option; returns the number of arguments used.
cv_source_option() {
  case "$1" in
    --camera) CV_SOURCE=camera; CV_SRC_DEVICE=$2; return 2 ;;
    --format) CV_SRC_FORMAT=$2; return 2 ;;
    --fps) CV_SRC_FPS=$2; return 2 ;;
    --size) CV_SRC_SIZE=$2; return 2 ;;
    --left) CV_SOURCE=pairs; CV_SRC_LEFT=$2; return 2 ;;
    --right) CV_SOURCE=pairs; CV_SRC_RIGHT=$2; return 2 ;;
    --start) CV_SRC_START=$2; return 2 ;;
    --frames) CV_SRC_FRAMES=$2; return 2 ;;
  esac
  return 0
}

cv_parse_size() {
  [[ "$1" =~ ^([0-9]+)x([0-9]+)$ ]] || cv_die "--size must be WIDTHxHEIGHT, got '$1'"
  echo "${BASH_REMATCH[1]} ${BASH_REMATCH[2]}"
}

# Sets CV_SRC_HEAD, CV_SRC_TAIL (empty unless the source has branches),
# CV_VIEW_W, CV_VIEW_H, CV_FORMAT, and for the synthetic camera its
# calibration.  In --check mode cameras become videotestsrc.
cv_make_source() {
  local w h n caps
  case "$CV_SOURCE" in
    synthetic)
      read -r w h <<<"$(cv_parse_size "${CV_SRC_SIZE:-640x480}")"
      [ $((w % 2)) = 0 ] || cv_die "the synthetic view width must be even"
      cv_need stereotestsrc
      CV_VIEW_W=$w; CV_VIEW_H=$h; CV_FORMAT=NV12
      cv_synthetic_calib "$w" "$h"
      # the paint is ~120 luma levels above the road (Sobel ~480), the
      # asphalt texture reaches ~350 (docs/elements/cudahough.md); a
      # line's votes grow with the view's height: 60 at 480 rows
      local votes=$(( h * 60 / 480 < 10 ? 10 : h * 60 / 480 ))
      CV_HOUGH_PROPS="theta-step=0.5 edge-threshold=400 threshold=$votes nms-radius=4 max-lines=8"
      n=${CV_SRC_FRAMES:-100}
      [ "$CV_MODE" = check ] && n=0
      CV_SRC_HEAD="stereotestsrc num-buffers=$n ! \
video/x-raw,format=NV12,width=$((2 * w)),height=$h,framerate=${CV_SRC_FPS:-10/1}"
      CV_SRC_TAIL="" ;;
    camera)
      read -r w h <<<"$(cv_parse_size "${CV_SRC_SIZE:-2560x720}")"
      [ $((w % 4)) = 0 ] || cv_die "the side-by-side width $w must be a multiple of 4"
      CV_VIEW_W=$((w / 2)); CV_VIEW_H=$h; CV_FORMAT=NV12
      cv_need v4l2src videoconvert
      case "$CV_SRC_FORMAT" in
        yuy2) caps="video/x-raw,format=YUY2,width=$w,height=$h,framerate=${CV_SRC_FPS:-30/1}" ;;
        mjpeg) caps="image/jpeg,width=$w,height=$h,framerate=${CV_SRC_FPS:-30/1} ! jpegdec"
          cv_need jpegdec ;;
        *) cv_die "--format must be yuy2 or mjpeg" ;;
      esac
      if [ "$CV_MODE" = check ]; then
        [ "$CV_SRC_FORMAT" = mjpeg ] && caps="jpegenc ! $caps"
        CV_SRC_HEAD="videotestsrc num-buffers=0 ! $caps"
      else
        CV_SRC_HEAD="v4l2src device=$CV_SRC_DEVICE${CV_SRC_FRAMES:+ num-buffers=$CV_SRC_FRAMES} ! $caps"
      fi
      CV_SRC_HEAD+=" ! videoconvert ! video/x-raw,format=NV12"
      CV_SRC_TAIL="" ;;
    pairs)
      [ -n "$CV_SRC_LEFT" ] && [ -n "$CV_SRC_RIGHT" ] || cv_die "give both --left and --right"
      cv_need multifilesrc pngdec compositor videoconvert queue
      cv_pairs_source "$CV_SRC_LEFT" "$CV_SRC_RIGHT" "$CV_SRC_START" \
        "${CV_SRC_FRAMES:-0}" "${CV_SRC_FPS:-10/1}" ;;
  esac
}

# ---- the recording scripts (record-annotated.sh, record-disparity.sh) -----

# Their own options, for their usage text.
cv_usage_record() {
  cat <<EOF2
  -o, --output FILE       the MP4 file (default $output)
  --encoder E             nvh264enc or x264enc (default: nvh264enc when present)
  --max-disparity D       search range, px (default: 96 synthetic, else 128)
  --camera-height M --camera-pitch RAD
                          camera pose above the road (default: synthetic: its
                          rig; else estimated in every frame)
Calibration (camera and files; docs/overview.md#calibration):
  --focal-length PX  --principal-x PX  --principal-y PX  --baseline M
  --calib FILE            lines "focal-length=..." etc.
EOF2
}

# Parses a recording script's arguments into output, CV_ENCODER,
# max_disparity and pose (and the common, calibration and source options);
# `usage` is the script's.
cv_record_parse() {
  local used
  while [ $# -gt 0 ]; do
    used=0
    cv_common_option "$@" || used=$?
    [ $used = 0 ] && { cv_calib_option "$@" || used=$?; }
    [ $used = 0 ] && { cv_source_option "$@" || used=$?; }
    if [ $used -gt 0 ]; then shift $used; continue; fi
    case "$1" in
      -o|--output) output=$2; shift 2 ;;
      --encoder) CV_ENCODER=$2; shift 2 ;;
      --max-disparity) max_disparity=$2; shift 2 ;;
      --camera-height) pose="height=$2 $pose"; shift 2 ;;
      --camera-pitch) pose="pitch=$2 $pose"; shift 2 ;;
      -h|--help) usage; exit 0 ;;
      *) usage >&2; cv_die "unknown option '$1'" ;;
    esac
  done
  # --simulate N: the synthetic camera, N frames (the default source anyway)
  if [ -n "$CV_SIM_FRAMES" ]; then
    CV_SOURCE=synthetic; CV_SRC_FRAMES=$CV_SIM_FRAMES
  fi
}

# The elements (the chain's and "$@"), backend, source, search range, pose
# and encoder of a recording script.
cv_record_setup() {
  cv_need $CV_FULL_CHAIN_ELEMENTS "$@"
  cv_pick_backend
  cv_make_source
  if [ "$CV_SOURCE" = synthetic ]; then
    # the synthetic rig: 1.65 m above the road, pitched 0.02 rad down; its
    # nearest road pixels (bottom rows) are at about 81 px of disparity
    : "${max_disparity:=96}" "${pose:=height=1.65 pitch=0.02}"
  else
    cv_need_calib
  fi
  : "${max_disparity:=128}" "${pose:=estimate-camera=true}"
  cv_pick_encoder
}
