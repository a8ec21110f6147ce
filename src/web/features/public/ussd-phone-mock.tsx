import classes from './public.module.css';

const MENU = ['1. Order food', '2. Pay with Mobile Money', '3. Track my order', '4. Talk to an agent', '0. Exit'];

/** A phone drawn in CSS showing the USSD dialog a customer sees after dialling *920*12#. */
export function UssdPhoneMock() {
  return (
    <figure className={classes.phoneWrap} aria-label="Example: a USSD menu on a customer's phone after dialling *920*12#">
      <div className={classes.phone}>
        <div className={classes.phoneNotch} aria-hidden="true" />
        <div className={classes.phoneScreen}>
          <div className={classes.phoneStatus} aria-hidden="true">
            <span>9:41</span>
            <span className={classes.phoneSignal}>
              <span style={{ height: 4 }} />
              <span style={{ height: 6 }} />
              <span style={{ height: 8 }} />
              <span style={{ height: 10 }} />
            </span>
          </div>
          <div className={classes.phoneDialled} aria-hidden="true">
            *920*12#
          </div>
          <div className={classes.ussdDialog}>
            <div className={classes.ussdBody}>
              <div className={classes.ussdTitle}>Welcome to Mama Akos Kitchen</div>
              <ul className={classes.ussdList}>
                {MENU.map((line) => (
                  <li key={line}>{line}</li>
                ))}
              </ul>
              <div className={classes.ussdInput} aria-hidden="true">
                2<span className={classes.ussdCaret} />
              </div>
            </div>
            <div className={classes.ussdActions} aria-hidden="true">
              <span>CANCEL</span>
              <span>SEND</span>
            </div>
          </div>
          <div className={classes.phoneHome} aria-hidden="true" />
        </div>
      </div>
    </figure>
  );
}
