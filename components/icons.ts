/**
 * The icons the app draws (lucide-react), each from its own module: the package's entry is, for
 * Deno on the server, its CommonJS build of every icon (1.3 MB), which an instance's start and every
 * test process would otherwise load and compile for the few dozen used here (decision 0243). The
 * islands' build takes the same modules as from the package's ESM entry (its files are marked free
 * of side effects), so a bundle carries only the icons its island draws.
 */

export { default as ArrowDown } from "lucide-react/icons/arrow-down";
export { default as BookOpen } from "lucide-react/icons/book-open";
export { default as Bot } from "lucide-react/icons/bot";
export { default as Bug } from "lucide-react/icons/bug";
export { default as Camera } from "lucide-react/icons/camera";
export { default as ChevronLeft } from "lucide-react/icons/chevron-left";
export { default as ChevronRight } from "lucide-react/icons/chevron-right";
export { default as CircleUser } from "lucide-react/icons/circle-user";
export { default as Crop } from "lucide-react/icons/crop";
export { default as Dices } from "lucide-react/icons/dices";
export { default as Ellipsis } from "lucide-react/icons/ellipsis";
export { default as Flame } from "lucide-react/icons/flame";
export { default as Heart } from "lucide-react/icons/heart";
export { default as Hourglass } from "lucide-react/icons/hourglass";
export { default as ImagePlus } from "lucide-react/icons/image-plus";
export { default as Images } from "lucide-react/icons/images";
export { default as Info } from "lucide-react/icons/info";
export { default as Layers } from "lucide-react/icons/layers";
export { default as LayoutGrid } from "lucide-react/icons/layout-grid";
export { default as Link } from "lucide-react/icons/link";
export { default as Lock } from "lucide-react/icons/lock";
export { default as LockKeyhole } from "lucide-react/icons/lock-keyhole";
export { default as LogIn } from "lucide-react/icons/log-in";
export { default as LogOut } from "lucide-react/icons/log-out";
export { default as MapPin } from "lucide-react/icons/map-pin";
export { default as MapPinned } from "lucide-react/icons/map-pinned";
export { default as Megaphone } from "lucide-react/icons/megaphone";
export { default as Menu } from "lucide-react/icons/menu";
export { default as MessageCircle } from "lucide-react/icons/message-circle";
export { default as NotebookPen } from "lucide-react/icons/notebook-pen";
export { default as Pencil } from "lucide-react/icons/pencil";
export { default as Scale } from "lucide-react/icons/scale";
export { default as ScanSearch } from "lucide-react/icons/scan-search";
export { default as Settings } from "lucide-react/icons/settings";
export { default as Star } from "lucide-react/icons/star";
export { default as Stethoscope } from "lucide-react/icons/stethoscope";
export { default as Trash2 } from "lucide-react/icons/trash-2";
export { default as UserPlus } from "lucide-react/icons/user-plus";
export { default as UserRound } from "lucide-react/icons/user-round";
export { default as X } from "lucide-react/icons/x";
export type { LucideIcon } from "lucide-react";
