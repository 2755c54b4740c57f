import { describeEveryTable } from "./a11y-tables";

describeEveryTable(2, 3);
