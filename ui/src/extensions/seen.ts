// The proposals whose inline diff is on screen in the text count as seen
// (../coverage.ts): looked at when the writer pauses scrolling or editing, over
// the lines actually in the scroller's view (not CodeMirror's wider viewport).
import { ViewPlugin, type EditorView, type ViewUpdate } from "@codemirror/view";
import { markSeen } from "../coverage";
import { reviewField } from "./review-field";

/** How long after a scroll or change the screen is looked at, in ms. */
const SETTLE_MS = 250;

export function seenInText(path: () => string | null) {
  return ViewPlugin.fromClass(
    class {
      private timer: ReturnType<typeof setTimeout> | undefined;
      private readonly onScroll = () => this.schedule();
      constructor(readonly view: EditorView) {
        view.scrollDOM.addEventListener("scroll", this.onScroll, { passive: true });
        this.schedule();
      }
      update(u: ViewUpdate) {
        if (u.viewportChanged || u.geometryChanged || u.docChanged || u.startState.field(reviewField, false) !== u.state.field(reviewField, false)) this.schedule();
      }
      schedule() {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.look(), SETTLE_MS);
      }
      look() {
        const p = path();
        const review = this.view.state.field(reviewField, false);
        if (!p || !review || !this.view.dom.isConnected) return;
        const scroller = this.view.scrollDOM;
        const height = scroller.clientHeight;
        if (height <= 0) return; // not laid out: nothing is on screen
        const top = Math.max(0, scroller.getBoundingClientRect().top - this.view.documentTop);
        const from = this.view.lineBlockAtHeight(top).from;
        const to = this.view.lineBlockAtHeight(top + height).to;
        const ids: string[] = [];
        review.proposals.between(from, to, (_a, _b, v) => {
          ids.push(v.record.id);
        });
        if (ids.length) markSeen(p, ids);
      }
      destroy() {
        clearTimeout(this.timer);
        this.view.scrollDOM.removeEventListener("scroll", this.onScroll);
      }
    },
  );
}
