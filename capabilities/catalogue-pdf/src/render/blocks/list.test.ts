import { describe, expect, it } from "vitest";
import { pageBreaks } from "./list.js";

describe("pageBreaks", () => {
  it("breaks before the first item that no longer fits whole", () => {
    expect([...pageBreaks([10, 10, 10, 10, 10], 0, 0, 35)]).toEqual([3]);
  });

  it("carries at least two items onto the list's last page instead of its last item alone", () => {
    expect([...pageBreaks([10, 10, 10, 10], 0, 0, 35)]).toEqual([2]);
    expect([...pageBreaks([10, 10, 10, 10, 10, 10, 10], 0, 0, 35)]).toEqual([3, 5]);
  });

  it("moves a two-item list whole rather than split it, and never breaks at the top of a page", () => {
    expect([...pageBreaks([10, 10], 20, 0, 35)]).toEqual([0]);
    expect([...pageBreaks([10, 10], 0, 0, 15)]).toEqual([1]);
  });

  it("starts a list that would leave one item alone at the foot of a page on the next page", () => {
    expect([...pageBreaks([10, 10, 10, 10, 10], 20, 0, 35)]).toEqual([0, 3]);
  });

  it("takes the top-level item along when the last page would hold only its nested items", () => {
    // Four items fit a page; items 4 and 5 are nested under item 3, which goes with them.
    expect([...pageBreaks([10, 10, 10, 10, 10, 10], 0, 0, 45, [0, 0, 0, 0, 1, 1])]).toEqual([3]);
    expect([...pageBreaks([10, 10, 10, 10, 10, 10], 0, 0, 45)]).toEqual([4]);
  });

  it("leaves the nested items where they are when their item and they would not fit a page, or would leave one item behind", () => {
    expect([...pageBreaks([10, 10, 10, 10, 10, 10, 10], 30, 0, 45, [0, 0, 1, 1, 1, 1, 1])]).toEqual([0, 4]);
    expect([...pageBreaks([10, 10, 10, 10, 10], 0, 0, 45, [0, 1, 1, 1, 1])]).toEqual([3]);
  });

  it("lets an item taller than a page flow over instead of moving it", () => {
    expect([...pageBreaks([10, 50], 0, 0, 35)]).toEqual([]);
  });
});
