import { describeEveryTable } from "./a11y-tables";

describeEveryTable(1, 3);
